import type { IDataObject } from 'n8n-workflow';

import type { StandInCamera } from '../harness/standInCamera';
import { startStandInCamera } from '../harness/standInCamera';
import { activateTrigger } from '../harness/trigger';
import { DRIVEWAY } from '../watch/frames';
import { useServer } from './setup';

/**
 * For the trigger's node tests: the reference server (its synthetic colour model), a stand-in
 * camera for each test, and the trigger's parameters watching the camera's driveway for arrivals.
 */
export function useWatchedDriveway(defaults: { lookEvery: number; options?: IDataObject }) {
	const { server, credentials } = useServer({ defaultModels: 'synthetic' });
	const state: { camera?: StandInCamera } = {};
	beforeEach(async () => {
		state.camera = await startStandInCamera();
	});
	afterEach(async () => {
		await state.camera?.close();
	});
	const camera = () => state.camera!;
	const parameters = (extra: IDataObject = {}, options: IDataObject = {}): IDataObject => ({
		cameraUrl: camera().url,
		modelId: { __rl: true, mode: 'id', value: server().models.detect },
		lookEvery: defaults.lookEvery,
		lookEveryUnit: 'seconds',
		events: ['arrival'],
		options: { zones: { zone: [{ name: 'driveway', points: DRIVEWAY }] }, zoneAnchor: 'bottomCenter', ...defaults.options, ...options },
		...extra,
	});
	const activate = async (extra: IDataObject = {}, options: IDataObject = {}, saved?: IDataObject) =>
		await activateTrigger({ parameters: parameters(extra, options), credentials: credentials(), ...(saved ? { saved } : {}) });
	return { server, credentials, camera, parameters, activate };
}
