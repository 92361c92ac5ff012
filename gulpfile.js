const path = require('path');
const { task, src, dest } = require('gulp');

// tsc does not copy assets: put the node and credential icons, the codex files and the schema
// preview files (nodes/SalesPayments/__schema__, see `npm run schemas`) next to the compiled files.
task('build:icons', () =>
	src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], { encoding: false, base: '.' }).pipe(
		dest(path.resolve('dist')),
	),
);
