// The scanner ships as an untyped ES module; these are the parts test/support/scan.ts uses.
declare module '@n8n/scan-community-package/scanner/scanner.mjs' {
	export interface AnalysisResult {
		passed: boolean;
		message?: string;
		details?: string;
	}
	export function analyzePackage(dir: string, patterns?: string[]): Promise<AnalysisResult>;
	export const SOURCE_FILE_PATTERNS: string[];
}
