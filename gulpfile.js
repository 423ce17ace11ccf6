const { src, dest } = require('gulp');

/** Copies what tsc does not emit (icons, codex JSON) beside the compiled nodes and credentials. */
function buildIcons() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports['build:icons'] = buildIcons;
