import { ImageInferenceCameraApi } from '../../credentials/ImageInferenceCameraApi.credentials';

const credential = new ImageInferenceCameraApi();
const request = { url: 'http://127.0.0.1/snapshot.jpg', headers: { accept: 'image/*' } };

describe('Image Inference Camera credential', () => {
	it('has the fields the trigger reads (look/settings.ts), each login type’s own shown for it', () => {
		const fields = Object.fromEntries(credential.properties.map((field) => [field.name, field.displayOptions?.show?.loginType ?? 'always']));
		expect(fields).toEqual({
			loginType: 'always',
			username: ['basic', 'digest'],
			password: ['basic', 'digest'],
			headerName: ['header'],
			headerValue: ['header'],
			testUrl: 'always',
			ignoreSslIssues: 'always',
		});
		expect(credential.properties.find((field) => field.name === 'loginType')?.options?.map((option) => (option as { value: string }).value)).toEqual(['basic', 'digest', 'header']);
		expect(credential.properties.filter((field) => field.typeOptions?.password).map((field) => field.name)).toEqual(['password', 'headerValue']);
	});

	it('for its Test: Basic sent at once, Digest left to n8n to answer the challenge, a header token as its header', async () => {
		expect(await credential.authenticate({ loginType: 'basic', username: 'admin', password: 'pw' }, request)).toEqual({
			...request,
			skipSslCertificateValidation: false,
			auth: { username: 'admin', password: 'pw', sendImmediately: true },
		});
		expect(await credential.authenticate({ loginType: 'digest', username: 'admin', password: 'pw', ignoreSslIssues: true }, request)).toEqual({
			...request,
			skipSslCertificateValidation: true,
			auth: { username: 'admin', password: 'pw', sendImmediately: false },
		});
		expect(await credential.authenticate({ loginType: 'header', headerName: 'X-Api-Key', headerValue: 'tok' }, request)).toEqual({
			...request,
			skipSslCertificateValidation: false,
			headers: { accept: 'image/*', 'X-Api-Key': 'tok' },
		});
		expect(await credential.authenticate({ loginType: 'header', headerName: 'X-Api-Key', headerValue: 'tok' }, { url: request.url })).toEqual({
			url: request.url,
			skipSslCertificateValidation: false,
			headers: { 'X-Api-Key': 'tok' },
		});
		expect(await credential.authenticate({ loginType: 'basic', username: 7, password: false }, { url: request.url })).toMatchObject({ auth: { username: '', password: '' } });
	});

	it('tests the snapshot URL it is given, without following a redirect', () => {
		expect(credential.test.request).toEqual({ url: '={{ $credentials.testUrl }}', method: 'GET', disableFollowRedirect: true });
	});
});
