// `npm run docs`: regenerates the README's operations table from the built node.
import { writeReadme } from '../test/support/docs';

writeReadme();
