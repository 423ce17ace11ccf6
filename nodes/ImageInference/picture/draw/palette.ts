import { fnv1a } from '../../pipeline/hash';
import type { Rgb } from './canvas';

/**
 * Twenty colours that stand apart (Sasha Trubetskoy's list of distinct colours, less its white and
 * grey, which outline zones and Ignore Regions), each with black or white text that reads on it.
 */
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
	[250, 190, 212],
	[0, 128, 128],
	[220, 190, 255],
	[170, 110, 40],
	[255, 250, 200],
	[128, 0, 0],
	[170, 255, 195],
	[128, 128, 0],
	[255, 215, 180],
	[0, 0, 128],
	[0, 0, 0],
];

/**
 * The label's colour: the same in every run and every workflow (from the label's hash, not the
 * order labels come in). Two labels can share one; the tag names each.
 */
export function labelColor(label: string): Rgb {
	return LABEL_COLORS[fnv1a(label) % LABEL_COLORS.length];
}

/** Zones are outlined in white, Ignore Regions in grey, each edged in black: no box is drawn so. */
export const ZONE_COLOR: Rgb = [255, 255, 255];
export const IGNORE_REGION_COLOR: Rgb = [128, 128, 128];
export const ZONE_EDGE_COLOR: Rgb = [0, 0, 0];
