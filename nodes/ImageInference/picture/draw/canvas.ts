import type { Point } from '../../pipeline/geometry';
import type { RgbPicture } from '../codec/codec';
import { GLYPH_GAP, GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows, writableText } from './font';

export type Rgb = readonly [red: number, green: number, blue: number];

/** Fills the pixels from (left, top) up to, not including, (right, bottom), cut to the picture. */
export function fillRect(picture: RgbPicture, left: number, top: number, right: number, bottom: number, color: Rgb): void {
	const x0 = Math.max(0, Math.round(left));
	const x1 = Math.min(picture.width, Math.round(right));
	const y0 = Math.max(0, Math.round(top));
	const y1 = Math.min(picture.height, Math.round(bottom));
	for (let y = y0; y < y1; y++) {
		for (let at = (y * picture.width + x0) * 3, end = (y * picture.width + x1) * 3; at < end; at += 3) {
			picture.pixels[at] = color[0];
			picture.pixels[at + 1] = color[1];
			picture.pixels[at + 2] = color[2];
		}
	}
}

/** A frame `thickness` pixels wide just outside the box (x, y, width, height in pixels), so the object itself stays visible. */
export function strokeBox(picture: RgbPicture, box: { x: number; y: number; width: number; height: number }, thickness: number, color: Rgb): void {
	const left = Math.round(box.x);
	const top = Math.round(box.y);
	const right = Math.round(box.x + box.width);
	const bottom = Math.round(box.y + box.height);
	fillRect(picture, left - thickness, top - thickness, right + thickness, top, color);
	fillRect(picture, left - thickness, bottom, right + thickness, bottom + thickness, color);
	fillRect(picture, left - thickness, top, left, bottom, color);
	fillRect(picture, right, top, right + thickness, bottom, color);
}

/** A line `thickness` pixels wide from one point to the other: squares laid at most half a pixel apart. */
export function drawLine(picture: RgbPicture, from: Point, to: Point, thickness: number, color: Rgb): void {
	const steps = Math.max(1, Math.ceil(Math.max(Math.abs(to[0] - from[0]), Math.abs(to[1] - from[1])) * 2));
	const half = thickness / 2;
	for (let step = 0; step <= steps; step++) {
		const x = from[0] + ((to[0] - from[0]) * step) / steps;
		const y = from[1] + ((to[1] - from[1]) * step) / steps;
		fillRect(picture, x - half, y - half, x + half, y + half, color);
	}
}

/** The outline of a closed polygon. */
export function strokePolygon(picture: RgbPicture, points: readonly Point[], thickness: number, color: Rgb): void {
	points.forEach((point, index) => drawLine(picture, point, points[(index + 1) % points.length], thickness, color));
}

/** The pixel size of a text written at `scale` (each font pixel `scale` × `scale`). */
export function textSize(text: string, scale: number): { width: number; height: number } {
	const characters = writableText(text).length;
	return { width: characters ? (characters * (GLYPH_WIDTH + GLYPH_GAP) - GLYPH_GAP) * scale : 0, height: GLYPH_HEIGHT * scale };
}

/** Writes the text with its top-left corner at (left, top), each font pixel `scale` × `scale`. */
export function drawText(picture: RgbPicture, text: string, left: number, top: number, scale: number, color: Rgb): void {
	[...writableText(text)].forEach((character, index) => {
		const glyphLeft = left + index * (GLYPH_WIDTH + GLYPH_GAP) * scale;
		glyphRows(character).forEach((bits, row) => {
			for (let column = 0; column < GLYPH_WIDTH; column++) {
				if (bits & (0x10 >> column)) {
					const x = glyphLeft + column * scale;
					const y = top + row * scale;
					fillRect(picture, x, y, x + scale, y + scale, color);
				}
			}
		});
	});
}

/** Black or white, whichever reads better on the colour (its luma, ITU-R BT.601). */
export function textColorOn(color: Rgb): Rgb {
	return 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2] >= 140 ? [0, 0, 0] : [255, 255, 255];
}

/** A rectangle in pixels: left and top included, right and bottom not. */
export interface Rect {
	left: number;
	top: number;
	right: number;
	bottom: number;
}

const overlaps = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** A tag's height at `scale`: the text and a padding of one font pixel above and below. */
export function tagHeight(scale: number): number {
	return textSize('', scale).height + 2 * scale;
}

/**
 * A tag: the text on a filled band of `color`, its left edge at `left` and its bottom at the first
 * of `bottoms` where it covers no tag in `taken` (else the first), moved inside the picture where
 * it would cross an edge. The tag's place is added to `taken`.
 */
export function drawTag(picture: RgbPicture, text: string, left: number, bottoms: readonly number[], scale: number, color: Rgb, taken: Rect[] = []): void {
	const size = textSize(text, scale);
	const padding = scale;
	const width = size.width + 2 * padding;
	const height = tagHeight(scale);
	const placeAt = (bottom: number): Rect => {
		const x = Math.max(0, Math.min(Math.round(left), picture.width - width));
		const y = Math.max(0, Math.min(Math.round(bottom) - height, picture.height - height));
		return { left: x, top: y, right: x + width, bottom: y + height };
	};
	const places = bottoms.map(placeAt);
	const place = places.find((candidate) => !taken.some((other) => overlaps(candidate, other))) ?? places[0];
	taken.push(place);
	fillRect(picture, place.left, place.top, place.right, place.bottom, color);
	drawText(picture, text, place.left + padding, place.top + padding, scale, textColorOn(color));
}
