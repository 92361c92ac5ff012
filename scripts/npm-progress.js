// How far an `npm install` or `npm ci` run with --loglevel=http got, from what npm itself prints.
// Plain JavaScript: ensure-deps.js uses it before the TypeScript tooling exists; the installs of
// test/support (n8n, Node.js, node-cli) use it through test/support/progress.ts.
//
// What npm 11 prints, measured with an empty and a warm cache: `npm http fetch GET 200 <url>` for
// each package manifest read while it resolves the tree; then one `npm http cache <name>@<tarball>
// ... (cache hit)` line for every tarball it needs, all at once and with an empty cache too (so it
// says nothing of where the tarball comes from); then `npm http fetch GET 200 <tarball> ... (cache
// miss)` for each tarball really downloaded. Unpacking and linking print nothing. So a tarball
// counts as downloaded on its fetch line only, and as taken from npm's cache only once npm ended
// without downloading it.

const TARBALL = /(https?:\/\/\S+?\.tgz)\b/;
/** Seconds without a line from npm after which the status says that npm is working silently. */
const QUIET_SECONDS = 20;

function count(n) {
	return n.toLocaleString('en-US');
}

/**
 * A watcher of npm's output lines: `line(text)` for each, `status()` for a progress line while
 * it runs, `summary()` once it ended. `clock` gives milliseconds (monotonic).
 */
function npmProgress(clock = () => performance.now()) {
	let manifests = 0;
	const listed = new Set();
	const downloaded = new Set();
	let lastLine = clock();
	return {
		line(text) {
			if (!text.startsWith('npm http ')) return;
			lastLine = clock();
			const tarball = TARBALL.exec(text)?.[1];
			if (!tarball) {
				if (text.startsWith('npm http fetch')) manifests++;
				return;
			}
			listed.add(tarball);
			if (text.startsWith('npm http fetch')) downloaded.add(tarball);
		},
		status() {
			const quiet = Math.round((clock() - lastLine) / 1000);
			const silent = quiet >= QUIET_SECONDS ? `; nothing new from npm for ${quiet} s: it does not report unpacking and linking` : '';
			if (listed.size === 0) return `resolving the dependency tree: ${count(manifests)} package manifests read${silent}`;
			const got = downloaded.size === 0 ? 'none downloaded so far' : `${count(downloaded.size)} downloaded so far`;
			return `fetching packages: ${count(listed.size)} needed, ${got} (npm downloads those its cache lacks)${silent}`;
		},
		summary() {
			const cached = listed.size - downloaded.size;
			return `${count(listed.size)} packages: ${count(downloaded.size)} downloaded, ${count(cached)} from npm's cache`;
		},
	};
}

module.exports = { npmProgress, QUIET_SECONDS };
