const { src, dest } = require('gulp');

/** Copies what tsc does not emit (icons, codex JSON, the picture codec's licence notices) beside the compiled nodes and credentials. */
function buildIcons() {
	return src(['nodes/**/*.{png,svg,json}', 'nodes/**/NOTICE.md', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports['build:icons'] = buildIcons;
