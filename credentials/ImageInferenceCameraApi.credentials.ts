import type { ICredentialDataDecryptedObject, ICredentialTestRequest, ICredentialType, IHttpRequestOptions, INodeProperties, Icon } from 'n8n-workflow';

/**
 * The login of a camera the Image Inference Trigger watches. n8n's own HTTP credentials cannot be
 * used by a community node (the community lint's `no-credential-reuse`), so the package has its own.
 * The trigger sends the login itself (Digest included: camera/snapshot.ts); `authenticate` serves
 * the credential's Test.
 */
export class ImageInferenceCameraApi implements ICredentialType {
	name = 'imageInferenceCameraApi';

	displayName = 'Image Inference Camera API';

	icon: Icon = {
		light: 'file:../nodes/ImageInferenceTrigger/imageInferenceTrigger.svg',
		dark: 'file:../nodes/ImageInferenceTrigger/imageInferenceTrigger.dark.svg',
	};

	documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-image-inference#image-inference-trigger';

	// Stryker disable all: the form, read by n8n's editor; its field names are checked against what the trigger reads (test/unit/camera-credential.test.ts)
	properties: INodeProperties[] = [
		{
			displayName: 'Login Type',
			name: 'loginType',
			type: 'options',
			options: [
				{ name: 'Basic', value: 'basic', description: 'User name and password, sent with every snapshot request' },
				{ name: 'Digest', value: 'digest', description: 'User name and password; the password itself is never sent (most IP cameras)' },
				{ name: 'Header Token', value: 'header', description: 'A header such as Authorization: Bearer … or X-Api-Key' },
			],
			default: 'digest',
		},
		{
			displayName: 'User Name',
			name: 'username',
			type: 'string',
			default: '',
			displayOptions: { show: { loginType: ['basic', 'digest'] } },
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { loginType: ['basic', 'digest'] } },
		},
		{
			displayName: 'Header Name',
			name: 'headerName',
			type: 'string',
			default: 'Authorization',
			displayOptions: { show: { loginType: ['header'] } },
		},
		{
			displayName: 'Header Value',
			name: 'headerValue',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'e.g. Bearer eyJ…',
			displayOptions: { show: { loginType: ['header'] } },
		},
		{
			displayName: 'Snapshot URL to Test',
			name: 'testUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. http://192.168.1.20/cgi-bin/snapshot.jpg',
			description: 'The camera’s snapshot address, used only by this credential’s Test button',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSslIssues',
			type: 'boolean',
			default: false,
			description: 'Whether to accept the camera’s HTTPS certificate even when it cannot be verified (a camera’s own self-signed certificate)',
		},
	];
	// Stryker restore all

	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const text = (value: unknown) => (typeof value === 'string' ? value : '');
		const authenticated: IHttpRequestOptions = { ...requestOptions, skipSslCertificateValidation: credentials.ignoreSslIssues === true };
		if (credentials.loginType === 'header') {
			authenticated.headers = { ...(requestOptions.headers ?? {}), [text(credentials.headerName)]: text(credentials.headerValue) };
		} else {
			// n8n answers a Digest challenge itself when `sendImmediately` is false
			authenticated.auth = { username: text(credentials.username), password: text(credentials.password), sendImmediately: credentials.loginType !== 'digest' };
		}
		return authenticated;
	}

	test: ICredentialTestRequest = {
		request: {
			url: '={{ $credentials.testUrl }}',
			method: 'GET',
			disableFollowRedirect: true,
		},
	};
}
