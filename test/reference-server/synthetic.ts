/**
 * The synthetic models: deterministic, fast, computed from the real pixels. "Colour regions"
 * detects strongly coloured regions and labels them by hue; "colour families" classifies an image
 * by how much of it is of each colour family. They stand in where a real model would only add time
 * (benchmarks, fault injection, very large images).
 */
import type { ClassifyResult, DetectedObject } from '../../nodes/ImageInference/contract';
import type { Rgb } from './draw';
import type { RgbaImage } from './image-codec';
import type { ClassifyOptions, Found } from './predict';
import { roundConfidence } from './predict';

/** The threshold when a request leaves `confidence` out. */
const DEFAULT_CONFIDENCE = 0.4;
const GRID = 48;
const MAX_DETECTIONS = 20;

const HUES: Array<{ label: string; until: number; colour: Rgb }> = [
	{ label: 'red', until: 15, colour: [230, 40, 40] },
	{ label: 'orange', until: 40, colour: [245, 140, 20] },
	{ label: 'yellow', until: 70, colour: [240, 220, 30] },
	{ label: 'green', until: 160, colour: [40, 200, 70] },
	{ label: 'cyan', until: 200, colour: [30, 210, 220] },
	{ label: 'blue', until: 260, colour: [50, 90, 240] },
	{ label: 'purple', until: 290, colour: [150, 60, 230] },
	{ label: 'magenta', until: 345, colour: [230, 50, 190] },
	{ label: 'red', until: 361, colour: [230, 40, 40] },
];
const COLOURS = new Map(HUES.map((hue) => [hue.label, hue.colour]));
const colourOf = (label: string): Rgb => COLOURS.get(label) ?? [255, 255, 255];

interface Cell {
	label?: string;
	saturation: number;
	value: number;
}

interface Grid {
	columns: number;
	rows: number;
	cellWidth: number;
	cellHeight: number;
	cells: Cell[];
}

function hsv(r: number, g: number, b: number) {
	const max = Math.max(r, g, b);
	const min = Math.min(r, g, b);
	const delta = max - min;
	let hue = 0;
	if (delta > 0) {
		if (max === r) hue = 60 * (((g - b) / delta + 6) % 6);
		else if (max === g) hue = 60 * ((b - r) / delta + 2);
		else hue = 60 * ((r - g) / delta + 4);
	}
	return { hue, saturation: max === 0 ? 0 : delta / max, value: max / 255 };
}

/** Mean colour of each cell of a GRID×GRID-ish grid (sampling every other pixel: enough and fast). */
function toGrid(image: RgbaImage): Grid {
	const cellSize = Math.max(1, Math.ceil(Math.max(image.width, image.height) / GRID));
	const columns = Math.ceil(image.width / cellSize);
	const rows = Math.ceil(image.height / cellSize);
	const cells: Cell[] = [];
	const step = cellSize >= 8 ? 2 : 1;
	for (let row = 0; row < rows; row++) {
		for (let column = 0; column < columns; column++) {
			let r = 0;
			let g = 0;
			let b = 0;
			let count = 0;
			for (let y = row * cellSize; y < Math.min(image.height, (row + 1) * cellSize); y += step) {
				for (let x = column * cellSize; x < Math.min(image.width, (column + 1) * cellSize); x += step) {
					const offset = (y * image.width + x) * 4;
					r += image.data[offset];
					g += image.data[offset + 1];
					b += image.data[offset + 2];
					count++;
				}
			}
			const colour = hsv(r / count, g / count, b / count);
			const strong = colour.saturation >= 0.42 && colour.value >= 0.22;
			cells.push({
				label: strong ? HUES.find((hue) => colour.hue < hue.until)!.label : undefined,
				saturation: colour.saturation,
				value: colour.value,
			});
		}
	}
	return { columns, rows, cellWidth: cellSize, cellHeight: cellSize, cells };
}

/** Every region of touching cells of one colour family, as a detection (before any threshold). */
function findRegions(image: RgbaImage): DetectedObject[] {
	const grid = toGrid(image);
	const seen = new Uint8Array(grid.cells.length);
	const found: DetectedObject[] = [];
	for (let start = 0; start < grid.cells.length; start++) {
		const label = grid.cells[start].label;
		if (!label || seen[start]) continue;
		const stack = [start];
		seen[start] = 1;
		let minColumn = Infinity;
		let maxColumn = -1;
		let minRow = Infinity;
		let maxRow = -1;
		let saturation = 0;
		let size = 0;
		while (stack.length) {
			const index = stack.pop()!;
			const column = index % grid.columns;
			const row = Math.floor(index / grid.columns);
			minColumn = Math.min(minColumn, column);
			maxColumn = Math.max(maxColumn, column);
			minRow = Math.min(minRow, row);
			maxRow = Math.max(maxRow, row);
			saturation += grid.cells[index].saturation;
			size++;
			const neighbours = [
				column > 0 ? index - 1 : -1,
				column < grid.columns - 1 ? index + 1 : -1,
				row > 0 ? index - grid.columns : -1,
				row < grid.rows - 1 ? index + grid.columns : -1,
			];
			for (const next of neighbours) {
				if (next >= 0 && !seen[next] && grid.cells[next].label === label) {
					seen[next] = 1;
					stack.push(next);
				}
			}
		}
		if (size < 2) continue;
		const x = minColumn * grid.cellWidth;
		const y = minRow * grid.cellHeight;
		const confidence = Math.min(0.99, 0.2 + 0.45 * (saturation / size) + 0.35 * Math.min(1, size / 40));
		found.push({
			label,
			confidence: roundConfidence(confidence),
			x,
			y,
			width: Math.min(image.width, (maxColumn + 1) * grid.cellWidth) - x,
			height: Math.min(image.height, (maxRow + 1) * grid.cellHeight) - y,
		});
	}
	return found.sort((a, b) => b.confidence - a.confidence || a.y - b.y || a.x - b.x).slice(0, MAX_DETECTIONS);
}

/** Colour regions: every region of touching cells of one colour family. */
export function colourRegions(image: RgbaImage): Found {
	return { objects: findRegions(image), defaultConfidence: DEFAULT_CONFIDENCE, colourOf };
}

const CATEGORIES = ['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'magenta', 'neutral'];

/** Categories weighted by how much of the image is of each colour family; they sum to 1. */
export function colourFamilies(image: RgbaImage, options: ClassifyOptions): ClassifyResult {
	const grid = toGrid(image);
	const weights = new Map(CATEGORIES.map((category) => [category, 0.001]));
	for (const cell of grid.cells) {
		const category = cell.label ?? 'neutral';
		weights.set(category, weights.get(category)! + (cell.label ? 1 + cell.saturation : 0.6));
	}
	const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
	const ranked = [...weights]
		.map(([category, weight]) => ({ category, confidence: roundConfidence(weight / total) }))
		.sort((a, b) => b.confidence - a.confidence || a.category.localeCompare(b.category));
	const threshold = options.confidence ?? 0;
	return {
		category: ranked[0].category,
		confidence: ranked[0].confidence,
		predictions: ranked.filter((prediction) => prediction.confidence >= threshold),
	};
}
