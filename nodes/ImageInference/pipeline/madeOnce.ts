/**
 * `make(key, …)` made once per key object and kept as long as the key lives. The items of a run
 * share their options object when these hold no expression (readOptions), so what is read or
 * built from the options is made once a run, not once an item. `make`'s other arguments (the item
 * it is made for) count only the first time: a key's value must not depend on them.
 */
export function madeOncePer<K extends object, A extends unknown[], V>(make: (key: K, ...rest: A) => V): (key: K, ...rest: A) => V {
	const made = new WeakMap<K, V>();
	return (key, ...rest) => {
		if (made.has(key)) return made.get(key) as V;
		const value = make(key, ...rest);
		made.set(key, value);
		return value;
	};
}
