/**
 * A real browser for the editor e2e: Debian's Chromium (/usr/bin/chromium, installed by
 * test/e2e/setup-machine.sh) driven by playwright-core. Never downloads a browser. Each launch gets
 * a new, empty user data dir (deleted on close), no network beyond what the page asks for, and
 * records everything the page reports so a test can assert "nothing errored".
 *
 * Exports:
 *   CHROMIUM_PATH ($N8N_E2E_CHROMIUM or /usr/bin/chromium)
 *   launchBrowser({viewport?, headless?}): Promise<BrowserSession>
 *   BrowserSession {
 *     context, page,
 *     console: ConsoleEntry[]      every console message (type, text, location url)
 *     pageErrors: string[]         uncaught exceptions in the page
 *     failedRequests: FailedRequest[]  requests that failed at network level or got HTTP >= 400
 *     problems(ignore?): string[]  console errors/warnings-as-errors, page errors and failed requests,
 *                                  minus those matching one of `ignore` (RegExp on the text/url)
 *     close()
 *   }
 *   loginToN8n(page, baseUrl, {email, password}, {redirect?}): Promise<void>   the sign-in form, as a
 *                                  user does it; `redirect` (a path) is where n8n goes after sign-in
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.N8N_E2E_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/**
 * Browser noise while the editor loads (before the node panel is opened), all from n8n's own
 * frontend and none about this package:
 *  - GET /rest/login → 401: the editor asks "who am I?" before the sign-in form is submitted.
 *  - "injectNDVStore() was accessed without an active workflow document store": n8n 2.40.7's
 *    NodeView logs it once when it opens a workflow right after sign-in (the ?redirect= path); it
 *    shows up just the same for a workflow holding only core nodes (Manual Trigger + No Op).
 * Nothing is ignored once the node panel is open (the editor suites check that).
 */
export const EDITOR_LOAD_NOISE: RegExp[] = [
	/^console\.error: Failed to load resource: the server responded with a status of 401 \(Unauthorized\) \(http:\/\/127\.0\.0\.1:\d+\/rest\/login\)$/,
	/^request GET http:\/\/127\.0\.0\.1:\d+\/rest\/login HTTP 401$/,
	/^console\.error: Error: injectNDVStore\(\) was accessed without an active workflow document store/,
];

export interface ConsoleEntry {
	type: string;
	text: string;
	url?: string;
}

export interface FailedRequest {
	url: string;
	method: string;
	status?: number;
	failure?: string;
}

export interface BrowserSession {
	context: BrowserContext;
	page: Page;
	console: ConsoleEntry[];
	pageErrors: string[];
	failedRequests: FailedRequest[];
	userDataDir: string;
	problems(ignore?: RegExp[]): string[];
	close(): Promise<void>;
}

export async function launchBrowser(
	o: { viewport?: { width: number; height: number }; headless?: boolean } = {},
): Promise<BrowserSession> {
	if (!fs.existsSync(CHROMIUM_PATH)) {
		throw new Error(`${CHROMIUM_PATH} not found: run test/e2e/setup-machine.sh (Debian's chromium)`);
	}
	const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-chromium-'));
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: CHROMIUM_PATH,
		headless: o.headless ?? true,
		args: CHROMIUM_ARGS,
		viewport: o.viewport ?? { width: 1440, height: 900 },
		locale: 'en-US',
		timezoneId: 'UTC',
	});
	const page = context.pages()[0] ?? (await context.newPage());
	const consoleEntries: ConsoleEntry[] = [];
	const pageErrors: string[] = [];
	const failedRequests: FailedRequest[] = [];
	context.on('console', (m) => consoleEntries.push({ type: m.type(), text: m.text(), url: m.location()?.url }));
	context.on('weberror', (e) => pageErrors.push(String(e.error()?.stack ?? e.error())));
	context.on('requestfailed', (r) =>
		failedRequests.push({ url: r.url(), method: r.method(), failure: r.failure()?.errorText }),
	);
	context.on('response', (r) => {
		if (r.status() >= 400) failedRequests.push({ url: r.url(), method: r.request().method(), status: r.status() });
	});
	const session: BrowserSession = {
		context,
		page,
		console: consoleEntries,
		pageErrors,
		failedRequests,
		userDataDir,
		problems(ignore: RegExp[] = []) {
			const ignored = (s: string) => ignore.some((re) => re.test(s));
			return [
				...consoleEntries
					.filter((c) => c.type === 'error')
					.map((c) => `console.error: ${c.text}${c.url ? ` (${c.url})` : ''}`),
				...pageErrors.map((e) => `page error: ${e}`),
				...failedRequests.map(
					(r) => `request ${r.method} ${r.url} ${r.status !== undefined ? `HTTP ${r.status}` : `failed: ${r.failure}`}`,
				),
			].filter((s) => !ignored(s));
		},
		async close() {
			await context.close().catch(() => undefined);
			fs.rmSync(userDataDir, { recursive: true, force: true });
		},
	};
	return session;
}

export async function loginToN8n(
	page: Page,
	baseUrl: string,
	owner: { email: string; password: string },
	o: { redirect?: string } = {},
): Promise<void> {
	const query = o.redirect ? `?redirect=${encodeURIComponent(o.redirect)}` : '';
	await page.goto(`${baseUrl}/signin${query}`, { waitUntil: 'domcontentloaded' });
	const email = page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first();
	await email.waitFor({ state: 'visible', timeout: 60_000 });
	await email.fill(owner.email);
	await page.locator('input[type="password"]').first().fill(owner.password);
	await page.locator('[data-test-id="form-submit-button"], button[type="submit"]').first().click();
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 60_000 });
}
