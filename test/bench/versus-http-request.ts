/** Placeholder replaced below once the e2e harness is wired in. */
export async function compareWithHttpRequestNode(smoke: boolean): Promise<string[][]> {
	void smoke;
	return [];
}
