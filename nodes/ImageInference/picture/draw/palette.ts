import { fnv1a } from '../../pipeline/hash';
import type { Rgb } from './canvas';

/** Strong colours that stand apart on photos, each with black or white text that reads on it. */
const LABEL_COLORS: readonly Rgb[] = [
	[230, 25, 75],
	[60, 180, 75],
	[255, 225, 25],
	[0, 130, 200],
	[245, 130, 48],
	[145, 30, 180],
	[70, 240, 240],
	[240, 50, 230],
	[210, 245, 60],
	[0, 128, 128],
	[170, 110, 40],
	[128, 0, 0],
];

/** The label's colour: the same in every run and every workflow (from the label's hash, not the order labels come in). */
export function labelColor(label: string): Rgb {
	return LABEL_COLORS[fnv1a(label) % LABEL_COLORS.length];
}

/** Zones are outlined in white, Ignore Regions in grey: neither is a label's colour. */
export const ZONE_COLOR: Rgb = [255, 255, 255];
export const IGNORE_REGION_COLOR: Rgb = [128, 128, 128];
