/** An output's detections as the service sent them: without the relativeBox the node adds to each. */
export const asServiceSent = (detections: unknown) =>
	(detections as Array<Record<string, unknown>>).map(({ relativeBox: _relativeBox, ...detection }) => detection);
