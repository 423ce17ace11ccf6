/**
 * The e2e harness for real n8n. Import from here (or the files themselves; both are stable).
 *   paths     repoRoot, fixturesDir, fixture(), examplesDir, cacheRoot
 *   install   ensureN8n(), e2eVersions(), DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION
 *   pack      packPackage(), installPackage(), NODE_TYPE, TOOL_NODE_TYPE, CREDENTIAL_TYPE, isBuilt()
 *   process   freePort(), spawnGroup(), run(), killGroup(), ManagedProcess
 *   n8n       createN8nHome() → N8nHome (cli, importWorkflows, importCredentials, execute, start, dispose)
 *   rest      RestClient (setupOwner, request, testCredential, createCredential, nodeTypes,
 *             finishedExecutions, waitForFinishedExecutions), OWNER
 *   workflow  workflow(), node(), manualTrigger(), readFile(), code(), imageInference(), …
 *   run-data  nodeItems(), nodeRuns(), nodeError(), executedNodes(), readBinary()
 *   examples  loadExample(), useCredentialAndModels(), feedTriggerWithFile(), swapNodeForFile(), asSavedAtVersion1()
 *   camera-example  activateCameraExample() (a camera example activated against a stand-in camera)
 *   driveway-example  importDriveway() (examples/driveway-to-telegram.json with its credentials, pointed at stand-ins), DRIVEWAY_TRIGGER
 *   scripted-openai  startScriptedOpenAi() (an OpenAI-compatible chat endpoint answering from a script), toolMessages()
 *   smtp      startSmtpCapture() (a real SMTP server on 127.0.0.1 keeping what it receives), smtpCredential()
 *   messengers  startMessengerCapture() (Telegram sendPhoto and a Discord webhook on 127.0.0.1, recording the multipart requests)
 *   telegram-bot-api  startTelegramBotApi() (the Bot API calls a Telegram bot workflow makes, activated: webhook, getFile, download, replies)
 *   evaluations  n8n's Evaluations test runs through the REST API (start one, find it, wait for it, its test cases)
 */
export * from './paths';
export * from './install';
export * from './pack';
export * from './process';
export * from './n8n';
export * from './rest';
export * from './workflow';
export * from './run-data';
export * from './examples';
export * from './camera-example';
export * from './driveway-example';
export * from './scripted-openai';
export * from './smtp';
export * from './messengers';
export * from './telegram-bot-api';
export * from './evaluations';
