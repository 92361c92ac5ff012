// `prepublishOnly`: releases are published only by the release workflow (.github/workflows/release.yml)
// on a version tag, with npm provenance (which n8n requires for verified community nodes). A plain
// `npm publish` from a laptop is refused. Plain JavaScript: it runs before any TypeScript tooling.
const env = process.env;
const inWorkflow = env.GITHUB_ACTIONS === 'true' && env.RELEASE_MODE === 'true';
const provenance = env.npm_config_provenance === 'true' || env.NPM_CONFIG_PROVENANCE === 'true';

if (!inWorkflow || !provenance) {
	process.stderr.write(
		[
			'Refusing to publish: n8n-nodes-sales-payments is published only by the release workflow,',
			'with npm provenance. To release: add the version to CHANGELOG.md, bump "version" in',
			'package.json, commit, and push a tag equal to the version (e.g. `git tag 0.2.0 && git push origin 0.2.0`).',
			`(GITHUB_ACTIONS=${env.GITHUB_ACTIONS ?? ''}, RELEASE_MODE=${env.RELEASE_MODE ?? ''}, provenance=${provenance})`,
			'',
		].join('\n'),
	);
	process.exit(1);
}
