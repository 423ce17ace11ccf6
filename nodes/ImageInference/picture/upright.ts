import type { RgbPicture } from './codec/codec';

/**
 * The picture as people see it: its stored pixels turned or mirrored by its EXIF orientation
 * (2–8, as pipeline/geometry.ts's uprightBox turns boxes). The drawn JPEG carries no EXIF, so its
 * pixels must stand upright themselves.
 */
export function uprightPicture(stored: RgbPicture, orientation: number | undefined): RgbPicture {
	if (orientation === undefined || orientation < 2 || orientation > 8) return stored;
	const { width, height } = stored;
	const turned = orientation >= 5;
	const uprightWidth = turned ? height : width;
	const uprightHeight = turned ? width : height;
	const pixels = new Uint8Array(stored.pixels.length);
	// for each upright pixel (x, y), the stored pixel it shows
	const source: Record<number, (x: number, y: number) => number> = {
		2: (x, y) => y * width + (width - 1 - x),
		3: (x, y) => (height - 1 - y) * width + (width - 1 - x),
		4: (x, y) => (height - 1 - y) * width + x,
		5: (x, y) => x * width + y,
		6: (x, y) => (height - 1 - x) * width + y,
		7: (x, y) => (height - 1 - x) * width + (width - 1 - y),
		8: (x, y) => x * width + (width - 1 - y),
	};
	const storedAt = source[orientation];
	for (let y = 0; y < uprightHeight; y++) {
		for (let x = 0; x < uprightWidth; x++) {
			const from = storedAt(x, y) * 3;
			const to = (y * uprightWidth + x) * 3;
			pixels[to] = stored.pixels[from];
			pixels[to + 1] = stored.pixels[from + 1];
			pixels[to + 2] = stored.pixels[from + 2];
		}
	}
	return { width: uprightWidth, height: uprightHeight, pixels };
}
