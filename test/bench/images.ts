import { randomBytes } from 'node:crypto';

import { PNG } from 'pngjs';

/** An incompressible PNG of about `megabytes` MB (random RGB pixels, stored without compression). */
export function noisePng(megabytes: number): Buffer {
	const side = Math.ceil(Math.sqrt((megabytes * 1024 * 1024) / 3));
	const png = new PNG({ width: side, height: side, colorType: 2, inputColorType: 2, inputHasAlpha: false });
	png.data = randomBytes(side * side * 3);
	return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false, deflateLevel: 0, filterType: 0 });
}
