// The part of the WebAssembly JavaScript API the picture codec uses. TypeScript declares it in
// lib.dom, which node code does not load (no document, window or fetch); Node.js has it built in.
declare namespace WebAssembly {
	class Module {
		private constructor();
	}
	class Memory {
		readonly buffer: ArrayBuffer;
	}
	class Instance {
		constructor(module: Module, imports: Record<string, Record<string, (...values: number[]) => number | void>>);
		readonly exports: Record<string, unknown>;
	}
	function compile(bytes: Uint8Array): Promise<Module>;
}
