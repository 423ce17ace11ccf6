import type { RgbPicture } from './codec/codec';
import type { Pause } from './slices';
import { sliceTimer } from './slices';

/**
 * The picture as people see it: its stored pixels turned or mirrored by its EXIF orientation
 * (2–8, as pipeline/geometry.ts's uprightBox turns boxes). The drawn JPEG carries no EXIF, so its
 * pixels must stand upright themselves.
 */
export async function uprightPicture(stored: RgbPicture, orientation: number | undefined, pause: Pause = sliceTimer()): Promise<RgbPicture> {
	if (orientation === undefined || orientation < 2 || orientation > 8) return stored;
	const { width, height } = stored;
	const turned = orientation >= 5;
	const uprightWidth = turned ? height : width;
	const uprightHeight = turned ? width : height;
	const pixels = new Uint8Array(stored.pixels.length);
	// the stored pixel upright pixel (x, y) shows is rowStart(y) + x × step
	const rowStart: Record<number, (y: number) => number> = {
		2: (y) => y * width + width - 1,
		3: (y) => (height - 1 - y) * width + width - 1,
		4: (y) => (height - 1 - y) * width,
		5: (y) => y,
		6: (y) => (height - 1) * width + y,
		7: (y) => (height - 1) * width + width - 1 - y,
		8: (y) => width - 1 - y,
	};
	const step = { 2: -1, 3: -1, 4: 1, 5: width, 6: -width, 7: -width, 8: width }[orientation]! * 3;
	for (let y = 0; y < uprightHeight; y++) {
		let from = rowStart[orientation](y) * 3;
		let to = y * uprightWidth * 3;
		for (let x = 0; x < uprightWidth; x++, from += step) {
			pixels[to++] = stored.pixels[from];
			pixels[to++] = stored.pixels[from + 1];
			pixels[to++] = stored.pixels[from + 2];
		}
		await pause();
	}
	return { width: uprightWidth, height: uprightHeight, pixels };
}
