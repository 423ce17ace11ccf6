import { CAR, carItem, detectParameters, failureOf, useServer, failureIn } from './setup';

/** Each bad input is refused with an item-indexed message, and no request at all is sent. */
describe('bad inputs are refused before any request', () => {
	const { server, run } = useServer({ defaultModels: 'synthetic' });

	const cases: Array<{
		name: string;
		/** Parameters that differ for the bad item (index 2), as an expression would make them. */
		bad?: Record<string, unknown>;
		item?: Parameters<typeof run>[1][number];
		message: RegExp;
		description?: RegExp;
	}> = [
		{ name: 'no binary field', item: { binary: { photo: { bytes: CAR, fileName: 'car.jpg' } } }, message: /No binary field "data"/, description: /"photo"/ },
		{ name: 'no binary at all', item: { json: { a: 1 } }, message: /No binary field "data"/, description: /URL or Base64/ },
		{
			name: 'two binary fields that are not there',
			bad: { binaryPropertyName: 'front, back' },
			message: /^No binary fields "front", "back" on this item$/,
			description: /^The item has the binary field\(s\) "data"\. Set "Input Binary Field" to one of them, or use "All Images on the Item"\.$/,
		},
		{
			name: 'Input Binary Field only commas and spaces',
			bad: { binaryPropertyName: ' , ,' },
			message: /^Input Binary Field is empty$/,
			description: /^Enter the name of a binary field, for example "data", or several separated by commas; or use "All Images on the Item"\.$/,
		},
		{ name: 'an empty file', item: { binary: { data: { bytes: Buffer.alloc(0), fileName: 'empty.jpg' } } }, message: /binary field "data" is empty/, description: /^"empty\.jpg" has 0 bytes\. Check the node that produced it\.$/ },
		{
			name: 'a file that is not an image',
			item: { binary: { data: { bytes: Buffer.from('%PDF-1.7 hello'), fileName: 'invoice.pdf', mimeType: 'application/pdf' } } },
			message: /binary field "data" is not an image/,
			description: /^"invoice\.pdf" \(application\/pdf\) is not JPEG, PNG, GIF, WebP, BMP or TIFF\. Pass an image file, or use "All Images on the Item" to skip files that are not images\.$/,
		},
		{ name: 'invalid base64', bad: { imageSource: 'base64', imageBase64: 'not*base64!' }, message: /not valid base64/ },
		{
			name: 'a Base64 Image of only white space',
			bad: { imageSource: 'base64', imageBase64: ' \n ' },
			message: /^Base64 Image is empty$/,
			description: /^Pass the image’s base64 text; a "data:image\/…;base64," prefix and line breaks are fine\. For a file from a previous node, use the Binary File image source\.$/,
		},
		{ name: 'a Base64 Image never set', bad: { imageSource: 'base64', imageBase64: undefined }, message: /^Base64 Image is empty$/ },
		{ name: 'an Image URL never set', bad: { imageSource: 'url', imageUrl: undefined }, message: /^Image URL is empty$/ },
		{ name: 'base64 of something else', bad: { imageSource: 'base64', imageBase64: Buffer.from('hello world').toString('base64') }, message: /does not decode to an image/ },
		{
			name: 'a URL that is not http(s)',
			bad: { imageSource: 'url', imageUrl: 'ftp://example.com/car.jpg' },
			message: /not an http\(s\) address/,
			description: /^Enter a full address starting with https:\/\/ \(or http:\/\/\) that the service can download\.$/,
		},
		{ name: 'an empty URL', bad: { imageSource: 'url', imageUrl: '' }, message: /Image URL is empty/ },
		{ name: 'a model ID that is not a UUID', bad: { modelId: 'my-model' }, message: /Model ID "my-model" is not a UUID/, description: /dashboard/ },
		{ name: 'confidence 1.5 by expression', bad: { options: { confidence: 1.5 } }, message: /Confidence Threshold must be a number from 0 to 1, got 1.5/ },
		{ name: 'confidence as text by expression', bad: { options: { confidence: 'high' } }, message: /Confidence Threshold must be a number/ },
		{ name: 'stroke width 9 by expression', bad: { options: { strokeWidth: 9 } }, message: /Box Stroke Width must be a number from 1 to 5, got 9/ },
		{ name: 'confidence blank by expression', bad: { options: { confidence: '' } }, message: /Confidence Threshold is blank: it must be a number from 0 to 1/ },
		{ name: 'confidence only spaces by expression', bad: { options: { confidence: '   ' } }, message: /Confidence Threshold is blank/ },
		{ name: 'retries only spaces by expression', bad: { options: { retries: ' ' } }, message: /Retries is blank: it must be a whole number from 0 to/ },
		{ name: 'stroke width 0x3 by expression', bad: { options: { strokeWidth: '0x3' } }, message: /Box Stroke Width must be a number from 1 to 5, got "0x3"/ },
		{ name: 'retries 1e1 by expression', bad: { options: { retries: '1e1' } }, message: /Retries must be a whole number from 0 to \d+, got "1e1"/ },
		{ name: 'confidence 0b1 by expression', bad: { options: { confidence: '0b1' } }, message: /Confidence Threshold must be a number from 0 to 1, got "0b1"/ },
		{ name: 'max objects Infinity by expression', bad: { options: { maxObjects: 'Infinity' } }, message: /Max Objects must be .*got "Infinity"/ },
		{ name: 'an empty output field', bad: { options: { annotatedImageField: ' ' } }, message: /Put Annotated Image in Field is empty/ },
		{ name: 'an output field that is not text', bad: { options: { annotatedImageField: 7 } }, message: /^Put Annotated Image in Field must be text, got 7$/, description: /^Enter the name of a binary field, for example "data"\.$/ },
		{ name: 'an original-image field that is not text', bad: { options: { outputImages: 'both', originalImageField: ['a'] } }, message: /^Put Original Image in Field must be text, got \["a"\]$/ },
		{
			name: 'an Image URL an expression made a number',
			bad: { imageSource: 'url', imageUrl: 42 },
			message: /^Image URL must be text, got 42$/,
			description: /^Enter a full address starting with https:\/\//,
		},
		{ name: 'an Image URL an expression made an object', bad: { imageSource: 'url', imageUrl: { href: 'https://example.com/photos/car.jpg' } }, message: /^Image URL must be text, got \{"href":"https:\/\/example\.com\/photos\/car…$/ },
		{ name: 'an Image URL an expression left null', bad: { imageSource: 'url', imageUrl: null }, message: /^Image URL is empty$/ },
		{ name: 'a Base64 Image an expression made a number', bad: { imageSource: 'base64', imageBase64: 12345 }, message: /^Base64 Image must be text, got 12345$/, description: /^Pass the image’s base64 text/ },
		{ name: 'an Input Binary Field an expression made a number', bad: { binaryPropertyName: 0 }, message: /^Input Binary Field must be text, got 0$/, description: /^Enter the name of a binary field/ },
		{ name: 'Show Confidence on Boxes as "yes" by expression', bad: { options: { showConfidence: 'yes' } }, message: /^Show Confidence on Boxes must be true or false, got "yes"$/ },
		{ name: 'Annotate Image as 1 by expression', bad: { options: { annotate: 1 } }, message: /^Annotate Image must be true or false, got 1$/, description: /^Turn "Annotate Image" on or off, or make the expression that sets it give true or false\.$/ },
		{
			name: 'a boolean left blank by expression',
			bad: { options: { annotate: ' ' } },
			message: /^Annotate Image is blank: it must be true or false$/,
			description: /^The "Annotate Image" option \(or the expression that sets it\) gave " "\. Remove the option to use the default, or give it true or false\.$/,
		},
		{ name: 'Include Images Without Objects as "no" by expression', bad: { outputItems: 'object', options: { includeImagesWithoutObjects: 'no' } }, message: /^Include Images Without Objects must be true or false, got "no"$/ },
		{ name: 'an empty Model ID', bad: { modelId: '  ' }, message: /^Model ID is empty$/, description: /^A model ID is a UUID: 36 characters.*Copy the model’s ID from its model details/ },
		{ name: 'a Model ID that is a number by expression', bad: { modelId: 42 }, message: /^Model ID "42" is not a UUID$/ },
		{ name: 'a Model ID an expression left null', bad: { modelId: null }, message: /^Model ID is empty$/ },
		{ name: 'a Model ID never set', bad: { modelId: undefined }, message: /^Model ID is empty$/ },
		{ name: 'a Model ID of 80 characters: shown whole', bad: { modelId: 'm'.repeat(80) }, message: new RegExp(`^Model ID "${'m'.repeat(80)}" is not a UUID$`) },
		{ name: 'a Model ID of 100 characters: shown cut to 80', bad: { modelId: 'm'.repeat(100) }, message: new RegExp(`^Model ID "${'m'.repeat(79)}…" is not a UUID$`) },
		{
			name: 'By URL: a link without a model in it',
			bad: { modelId: { __rl: true, mode: 'url', value: 'https://app.epigos.ai/workspace/projects/7' } },
			message: /^The link "https:\/\/app\.epigos\.ai\/workspace\/projects\/7" does not name a model ID where a link names one$/,
			description:
				/A link is read where it names the model: …\/models\/<model ID> \(the dashboard\), …\/predict\/detect\/<model ID>\/ or …\/predict\/classify\/<model ID>\/ \(the API\), or \?model=<model ID>\. Paste such a link, or choose By ID and paste the ID\.$/,
		},
		{ name: 'By ID: a whole link instead of the ID', bad: { modelId: { __rl: true, mode: 'id', value: 'https://app.epigos.ai/workspace/models/4f9c2d1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f' } }, message: /^Model ID "https:\/\/app\.epigos\.ai.*" is not a UUID$/ },
		{ name: 'confidence -0.1 by expression', bad: { options: { confidence: -0.1 } }, message: /^Confidence Threshold must be a number from 0 to 1, got -0\.1$/, description: /^Change the "Confidence Threshold" option \(or the expression that sets it\)\.$/ },
		{ name: 'retries 1.5 by expression', bad: { options: { retries: 1.5 } }, message: /^Retries must be a whole number from 0 to \d+, got 1\.5$/ },
		{ name: 'confidence as true by expression', bad: { options: { confidence: true } }, message: /^Confidence Threshold must be a number from 0 to 1, got true$/ },
		{ name: 'confidence NaN by expression', bad: { options: { confidence: Number.NaN } }, message: /^Confidence Threshold must be a number from 0 to 1, got null$/ },
		{ name: 'a blank option says what it gave', bad: { options: { strokeWidth: '' } }, message: /^Box Stroke Width is blank/, description: /^The "Box Stroke Width" option \(or the expression that sets it\) gave ""\. Remove the option to use the default, or give it a number\.$/ },
		{ name: 'stroke width "1.5.2" by expression', bad: { options: { strokeWidth: '1.5.2' } }, message: /^Box Stroke Width must be a number from 1 to 5, got "1\.5\.2"$/ },
	];

	it.each(cases)('$name', async ({ bad = {}, item, message, description }) => {
		// Image Source and Output Items take no expression: a case's are every item's, with a good image for the others
		const sameSource = 'imageSource' in bad ? { imageSource: bad.imageSource, imageUrl: 'https://example.com/car.jpg', imageBase64: CAR.toString('base64') } : {};
		const defaults: Record<string, unknown> = { ...detectParameters(server()), ...sameSource, ...('outputItems' in bad ? { outputItems: bad.outputItems } : {}) };
		// for item 2 only, each by an expression, as n8n sets a parameter or an option per item
		const forItem2 = (value: unknown, otherwise: unknown) => (index: number) => (index === 2 ? value : otherwise);
		const parameters = Object.fromEntries(
			Object.entries({ ...defaults, ...bad }).map(([key, value]) => {
				if (!(key in bad) || key === 'imageSource' || key === 'outputItems') return [key, defaults[key]];
				if (key === 'options') return [key, Object.fromEntries(Object.entries(value as object).map(([name, option]) => [name, forItem2(option, undefined)]))];
				return [key, forItem2(value, defaults[key])];
			}),
		);
		const failure = await failureOf(run(parameters, [carItem(), carItem(), item ?? carItem()]));
		expect(failure.message).toMatch(message);
		if (description) expect(failure.description).toMatch(description);
		expect(failure.itemIndex).toBe(2);
		expect(server().requests).toHaveLength(0);
	});

	it('with Continue On Fail: the bad item becomes an error item in its slot, the others run', async () => {
		const items = [carItem(), { binary: { data: { bytes: Buffer.alloc(0), fileName: 'empty.jpg' } } }, carItem()];
		const { items: output } = await run(
			detectParameters(server(), { modelId: (index: number) => (index === 0 ? 'nope' : server().models.detect) }),
			items,
			{ continueOnFail: true },
		);
		expect(output).toHaveLength(3);
		expect(failureIn(output[0])?.message).toMatch(/Model ID "nope" is not a UUID/);
		expect(failureIn(output[1])?.message).toMatch(/is empty/);
		expect(output[2].json.totalDetections).toBeGreaterThan(0);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(server().requests).toHaveLength(1);
	});

	it('a file the binary store cannot read fails its own item, named, before any request', async () => {
		const failure = await failureOf(run(detectParameters(server()), [carItem(), carItem(), carItem()], { unreadableItems: [1] }));
		expect(failure.message).toMatch(/EIO/);
		expect(failure.itemIndex).toBe(1);
		expect(server().requests).toHaveLength(0);

		const { items } = await run(detectParameters(server()), [carItem(), carItem()], { unreadableItems: [1], continueOnFail: true });
		expect(items.map((item) => failureIn(item)?.message ?? item.json.totalDetections)).toEqual([expect.any(Number), expect.stringMatching(/EIO/)]);
	});

	it('with Continue On Fail, request settings are read per item: a bad or differing one fails its item alone', async () => {
		const options = [{ retries: 0 }, { concurrency: 0 }, { concurrency: 3 }, { retries: 2 }, { timeout: -1 }];
		server().addFault({ match: { kind: 'detect' }, action: { type: 'status', status: 503 } });
		const { items: output } = await run(
			detectParameters(server(), { options: { retries: (index: number) => options[index].retries, concurrency: (index: number) => options[index].concurrency, timeout: (index: number) => options[index].timeout } }),
			options.map(() => carItem()),
			{ continueOnFail: true },
		);
		expect(output.map((item) => item.pairedItem)).toEqual(options.map((_, item) => ({ item })));
		expect(failureIn(output[0])).toMatchObject({ status: 503, attempts: 1 });
		expect(failureIn(output[1])?.message).toMatch(/Concurrency must be a whole number from 1 to 50/);
		expect(failureIn(output[2])?.message).toMatch(/Concurrency is 3 for this item but 5 for item 0/);
		expect(failureIn(output[2])?.description).toBe('Give Concurrency the same value for every item (it is usually a fixed number, not an expression).');
		expect(failureIn(output[3])).toMatchObject({ status: 503, attempts: 3 });
		expect(failureIn(output[4])?.message).toMatch(/Timeout/);
		expect(server().requests).toHaveLength(4);
	});

	it('reads numbers an expression gives as plain decimal text: " 0.25 " and "3" are sent as 0.25 and 3', async () => {
		await run(detectParameters(server(), { options: { confidence: ' 0.25 ', strokeWidth: '3' } }), [carItem()]);
		expect(server().requests).toHaveLength(1);
		expect(server().requests[0].body).toMatchObject({ confidence: 0.25, stroke_width: 3 });
	});

	it.each([
		['the bounds themselves', { confidence: 0, strokeWidth: 5 }, { confidence: 0, stroke_width: 5 }],
		['the upper confidence bound and the lowest stroke', { confidence: 1, strokeWidth: 1 }, { confidence: 1, stroke_width: 1 }],
		['decimals written the short ways', { confidence: '.25', strokeWidth: '2.' }, { confidence: 0.25, stroke_width: 2 }],
		['booleans as booleans', { annotate: true, showConfidence: false }, { annotate: true, show_prob: false }],
		['a number an expression left null is unset', { confidence: null, strokeWidth: null }, {}],
		['multi-digit text', { strokeWidth: ' 4.00 ', confidence: '0.125' }, { confidence: 0.125, stroke_width: 4 }],
		['booleans an expression gives as text', { annotate: 'false', showConfidence: 'true' }, { annotate: false, show_prob: true }],
		['a boolean an expression left null is unset', { annotate: null, showConfidence: null }, {}],
	])('accepts %s and sends them as the service expects', async (_, options, sent) => {
		await run(detectParameters(server(), { options }), [carItem()]);
		expect(server().requests).toHaveLength(1);
		const body = server().requests[0].body as Record<string, unknown>;
		expect(body).toEqual({ image: CAR.toString('base64'), ...sent });
	});

	it('accepts a Model ID with spaces and capitals, and options an expression turned into text', async () => {
		const id = server().models.detect;
		await run(detectParameters(server(), { modelId: `  ${id.toUpperCase()}  `, options: 'not an object' }), [carItem()]);
		expect(server().requests.map((request) => request.path)).toEqual([`/predict/detect/${id}/`]);
	});

	it('accepts options an expression left null, and an output field name with spaces around it', async () => {
		const { items } = await run(detectParameters(server(), { options: null }), [carItem()]);
		expect(server().requests).toHaveLength(1);
		expect(items[0].json.totalDetections).toBeGreaterThan(0);
		const named = await run(detectParameters(server(), { options: { annotatedImageField: ' annotated ' } }), [carItem()]);
		expect(Object.keys(named.items[0].binary ?? {}).sort()).toEqual(['annotated', 'data']);
	});

	it('accepts the largest Concurrency and Retries', async () => {
		await run(detectParameters(server(), { options: { concurrency: 50, retries: '10' } }), [carItem()]);
		expect(server().requests).toHaveLength(1);
	});

	it('refuses a Concurrency of 0', async () => {
		const failure = await failureOf(run(detectParameters(server(), { options: { concurrency: 0 } }), [carItem()]));
		expect(failure.message).toMatch(/Concurrency must be a whole number from 1 to 50/);
		expect(server().requests).toHaveLength(0);
	});
});
