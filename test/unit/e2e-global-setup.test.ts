import { requireVersions } from '../e2e/global-setup';

describe('the e2e run requires every n8n version it is asked for', () => {
	it('a version that fails to install is reported with its one-line reason; the others still install', () => {
		const tried: string[] = [];
		const failures = requireVersions(['2.41.1', '1.123.81'], (version) => {
			tried.push(version);
			if (version === '1.123.81') throw new Error('install-n8n.sh: registry not answering (npm ETIMEDOUT)\nlast lines of the log…');
		});
		expect(tried).toEqual(['2.41.1', '1.123.81']);
		expect(failures).toEqual(['n8n 1.123.81: install-n8n.sh: registry not answering (npm ETIMEDOUT)']);
	});

	it('every version installed: nothing to report', () => {
		expect(requireVersions(['2.41.1', '1.123.81'], () => undefined)).toEqual([]);
	});
});
