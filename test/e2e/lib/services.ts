/**
 * Throwaway PostgreSQL and Redis for the queue-mode e2e, from Debian's packages
 * (test/e2e/setup-machine.sh installs them). Each one runs in the foreground as a child of the test
 * (own process group, registered with ./process so it dies with jest), on a free 127.0.0.1 port,
 * with its data in a fresh temp folder that is deleted on stop. No system service is used.
 *
 * Exports:
 *   startPostgres({database?}): Promise<PostgresService>
 *       initdb into a temp folder (as the `postgres` system user when running as root: Postgres
 *       refuses to run as root), trust auth on loopback only, durability off (fsync etc.: test data),
 *       creates `database` (default 'n8n').
 *       PostgresService { host, port, user, database, dataDir, n8nEnv(), query(sql), stop() }
 *         n8nEnv()   DB_TYPE=postgresdb and DB_POSTGRESDB_* for n8n
 *         query(sql) runs psql -At (unaligned, tuples only); returns rows as arrays of strings
 *   startRedis(): Promise<RedisService>
 *       redis-server --port <free> --bind 127.0.0.1 --save '' --appendonly no --daemonize no
 *       RedisService { host, port, n8nEnv(), stop() }
 *         n8nEnv()   QUEUE_BULL_REDIS_HOST/PORT for n8n
 *   startQueueServices(): Promise<{ pg, redis, stop() }>   both at once; when either cannot start,
 *       the one that did is stopped before the error is passed on (nothing is left running)
 *   postgresBinDir(): string   the newest /usr/lib/postgresql/<v>/bin
 *   queueModeEnv(pg, redis, prefix): env for every n8n process of a queue-mode home: this
 *       Postgres and this Redis only (Bull keys under `prefix`), binary data in the database
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { freePort, killGroup, spawnGroup, type ManagedProcess } from './process';

const HOST = '127.0.0.1';
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

export function postgresBinDir(): string {
	const root = '/usr/lib/postgresql';
	const versions = fs.existsSync(root)
		? fs
				.readdirSync(root)
				.filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (!versions.length) throw new Error('PostgreSQL is not installed: run test/e2e/setup-machine.sh');
	return path.join(root, versions[0], 'bin');
}

/** [cmd, ...args] run as the postgres system user when we are root (setpriv execs: no extra process). */
function asPostgresUser(cmd: string, args: string[]): [string, string[]] {
	if (!isRoot()) return [cmd, args];
	return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', cmd, ...args]];
}

function chownToPostgres(dir: string): void {
	if (!isRoot()) return;
	execFileSync('chown', ['-R', 'postgres:postgres', dir]);
}

async function stopProcess(proc: ManagedProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
	if (!proc.running) return;
	killGroup(proc.pid, signal);
	const timer = setTimeout(() => killGroup(proc.pid, 'SIGKILL'), graceMs);
	await proc.exited;
	clearTimeout(timer);
}

export interface PostgresService {
	host: string;
	port: number;
	user: string;
	database: string;
	dataDir: string;
	process: ManagedProcess;
	n8nEnv(): NodeJS.ProcessEnv;
	query(sql: string): string[][];
	stop(): Promise<void>;
}

export async function startPostgres(o: { database?: string } = {}): Promise<PostgresService> {
	const bin = postgresBinDir();
	const database = o.database ?? 'n8n';
	const user = 'n8n';
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-pg-'));
	const dataDir = path.join(root, 'data');
	const socketDir = path.join(root, 'sock');
	fs.mkdirSync(socketDir);
	fs.chmodSync(root, 0o755);
	chownToPostgres(root);
	const [initCmd, initArgs] = asPostgresUser(path.join(bin, 'initdb'), [
		'-D', dataDir, '-U', user, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync',
	]);
	execFileSync(initCmd, initArgs, { stdio: ['ignore', 'pipe', 'pipe'] });

	const port = await freePort();
	const [cmd, args] = asPostgresUser(path.join(bin, 'postgres'), [
		'-D', dataDir,
		'-p', String(port),
		'-k', socketDir,
		'-c', `listen_addresses=${HOST}`,
		'-c', 'fsync=off',
		'-c', 'synchronous_commit=off',
		'-c', 'full_page_writes=off',
		'-c', 'max_connections=200',
		'-c', 'logging_collector=off',
	]);
	const proc = spawnGroup(cmd, args, { logFile: path.join(root, 'postgres.log') });
	const stop = async () => {
		await stopProcess(proc, 'SIGINT', 15_000); // SIGINT = "fast" shutdown
		fs.rmSync(root, { recursive: true, force: true });
	};
	try {
		await proc.waitForOutput(/database system is ready to accept connections/, 60_000);
	} catch (e) {
		await stop();
		throw e;
	}
	const psql = (db: string, sql: string) =>
		execFileSync(path.join(bin, 'psql'), ['-h', HOST, '-p', String(port), '-U', user, '-d', db, '-v', 'ON_ERROR_STOP=1', '-At', '-F', '\t', '-c', sql], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
	await stopIfFails(stop, async () => psql('postgres', `CREATE DATABASE "${database}"`));
	return {
		host: HOST,
		port,
		user,
		database,
		dataDir,
		process: proc,
		n8nEnv: () => ({
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: HOST,
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: database,
			DB_POSTGRESDB_USER: user,
			DB_POSTGRESDB_PASSWORD: '',
			DB_POSTGRESDB_SCHEMA: 'public',
		}),
		query: (sql: string) =>
			psql(database, sql)
				.split('\n')
				.filter((l) => l.length)
				.map((l) => l.split('\t')),
		stop,
	};
}

export interface RedisService {
	host: string;
	port: number;
	process: ManagedProcess;
	n8nEnv(): NodeJS.ProcessEnv;
	stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisService> {
	const redis = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((f) => fs.existsSync(f));
	if (!redis) throw new Error('redis-server is not installed: run test/e2e/setup-machine.sh');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-redis-'));
	const port = await freePort();
	const proc = spawnGroup(
		redis,
		['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir, '--protected-mode', 'yes'],
		{ cwd: dir, logFile: path.join(dir, 'redis.log') },
	);
	const stop = async () => {
		await stopProcess(proc, 'SIGTERM', 10_000);
		fs.rmSync(dir, { recursive: true, force: true });
	};
	await stopIfFails(stop, async () => await proc.waitForOutput(/Ready to accept connections/, 30_000));
	return {
		host: HOST,
		port,
		process: proc,
		n8nEnv: () => ({ QUEUE_BULL_REDIS_HOST: HOST, QUEUE_BULL_REDIS_PORT: String(port) }),
		stop,
	};
}

/** Runs a start-up step; if it fails, stops what was started before passing the error on. */
async function stopIfFails(stop: () => Promise<void>, step: () => Promise<unknown>): Promise<void> {
	try {
		await step();
	} catch (error) {
		await stop();
		throw error;
	}
}

export interface QueueServices {
	pg: PostgresService;
	redis: RedisService;
	stop(): Promise<void>;
}

export async function startQueueServices(): Promise<QueueServices> {
	const [pg, redis] = await Promise.allSettled([startPostgres(), startRedis()]);
	if (pg.status === 'fulfilled' && redis.status === 'fulfilled') {
		return {
			pg: pg.value,
			redis: redis.value,
			stop: async () => {
				await redis.value.stop();
				await pg.value.stop();
			},
		};
	}
	if (pg.status === 'fulfilled') await pg.value.stop();
	if (redis.status === 'fulfilled') await redis.value.stop();
	throw pg.status === 'rejected' ? pg.reason : (redis as PromiseRejectedResult).reason;
}

/** The environment of every process of a queue-mode n8n home (main and workers). */
export function queueModeEnv(pg: PostgresService, redis: RedisService, prefix: string): NodeJS.ProcessEnv {
	return {
		...pg.n8nEnv(),
		...redis.n8nEnv(),
		EXECUTIONS_MODE: 'queue',
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		QUEUE_BULL_PREFIX: prefix,
		QUEUE_HEALTH_CHECK_ACTIVE: 'false',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
	};
}
