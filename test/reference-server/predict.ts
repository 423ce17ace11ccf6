/**
 * Deterministic "models" computed from the real pixels: detection finds strongly coloured
 * regions and labels them by hue; classification weighs the image's colour families.
 */
import type { ClassifyResult, DetectResult, DetectedObject } from '../../nodes/ImageInference/contract';
import type { Rgb } from './draw';
import { drawLabel, strokeRect } from './draw';
import { GLYPH_HEIGHT, GLYPH_WIDTH } from './font';
import type { DecodedImage, RgbaImage } from './image-codec';
import { encodeImage } from './image-codec';

export interface DetectOptions {
	confidence?: number;
	annotate?: boolean;
	show_prob?: boolean | null;
	stroke_width?: number | null;
}

export interface ClassifyOptions {
	confidence?: number;
}

/** What the service uses when a request leaves the option out. */
export const DEFAULT_DETECT_CONFIDENCE = 0.4;
export const DEFAULT_STROKE_WIDTH = 2;
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

const round = (value: number) => Math.round(value * 10_000) / 10_000;

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
			confidence: round(confidence),
			x,
			y,
			width: Math.min(image.width, (maxColumn + 1) * grid.cellWidth) - x,
			height: Math.min(image.height, (maxRow + 1) * grid.cellHeight) - y,
		});
	}
	return found.sort((a, b) => b.confidence - a.confidence || a.y - b.y || a.x - b.x).slice(0, MAX_DETECTIONS);
}

export function detect(image: DecodedImage, options: DetectOptions): DetectResult {
	const threshold = options.confidence ?? DEFAULT_DETECT_CONFIDENCE;
	const detections = findRegions(image).filter((detection) => detection.confidence >= threshold);
	const totals = new Map<string, number>();
	for (const { label } of detections) totals.set(label, (totals.get(label) ?? 0) + 1);
	const labelsCount = [...totals].map(([label, total]) => ({ label, total }));
	const annotate = options.annotate ?? true;
	return {
		detections,
		image: annotate ? annotated(image, detections, options).toString('base64') : null,
		labelsCount,
	};
}

function annotated(image: DecodedImage, detections: DetectedObject[], options: DetectOptions): Buffer {
	const canvas = { width: image.width, height: image.height, data: Buffer.from(image.data) };
	const stroke = Math.round(options.stroke_width ?? DEFAULT_STROKE_WIDTH);
	const scale = Math.max(1, Math.round(Math.max(image.width, image.height) / 400));
	const colourOf = (label: string): Rgb => COLOURS.get(label) ?? [255, 255, 255];
	for (const detection of detections) strokeRect(canvas, detection, Math.max(1, stroke * scale), colourOf(detection.label));
	// Labels after all boxes, so no later box is drawn through an earlier label.
	if (options.show_prob ?? true) {
		const placed: Box[] = [];
		for (const detection of detections) {
			const colour = colourOf(detection.label);
			const text = `${detection.label} ${detection.confidence.toFixed(2)}`;
			const width = text.length * (GLYPH_WIDTH + 1) * scale + 2 * scale;
			const height = GLYPH_HEIGHT * scale + 2 * scale;
			// Above the box, else below it, else inside its top edge: the first spot no other label holds.
			const bottoms = [detection.y, detection.y + detection.height + height, detection.y + height];
			const spots = bottoms.map((bottom) => ({ x: detection.x, y: Math.max(0, bottom - height), width, height }));
			const spot = spots.find((candidate) => candidate.y + height <= canvas.height && !placed.some((other) => overlaps(candidate, other))) ?? spots[0];
			placed.push(spot);
			drawLabel(canvas, text, spot.x, spot.y + height, scale, colour, inkOn(colour));
		}
	}
	return encodeImage(canvas, image.format);
}

type Box = { x: number; y: number; width: number; height: number };

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Black or white text, whichever reads better on the label's background. */
function inkOn([r, g, b]: Rgb): Rgb {
	return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? [0, 0, 0] : [255, 255, 255];
}

const CATEGORIES = ['red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'magenta', 'neutral'];

/** Categories weighted by how much of the image is of each colour family; they sum to 1. */
export function classify(image: DecodedImage, options: ClassifyOptions): ClassifyResult {
	const grid = toGrid(image);
	const weights = new Map(CATEGORIES.map((category) => [category, 0.001]));
	for (const cell of grid.cells) {
		const category = cell.label ?? 'neutral';
		weights.set(category, weights.get(category)! + (cell.label ? 1 + cell.saturation : 0.6));
	}
	const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
	const ranked = [...weights]
		.map(([category, weight]) => ({ category, confidence: round(weight / total) }))
		.sort((a, b) => b.confidence - a.confidence || a.category.localeCompare(b.category));
	const threshold = options.confidence ?? 0;
	return {
		category: ranked[0].category,
		confidence: ranked[0].confidence,
		predictions: ranked.filter((prediction) => prediction.confidence >= threshold),
	};
}
