/** Types of npm-progress.js (plain JavaScript: it runs before the TypeScript tooling exists). */
export interface NpmProgress {
	line(text: string): void;
	status(): string;
	summary(): string;
}
export function npmProgress(clock?: () => number): NpmProgress;
export const QUIET_SECONDS: number;
