// ESLint's options module for multithreaded linting: the main thread and every worker import it
// (with the same query) and get the same options, plugin object included, without cloning it.

import { buildEslintOptions, inputFromOptionsModuleUrl } from './eslint-options.js';

export default buildEslintOptions(inputFromOptionsModuleUrl(import.meta.url));
