// Where the model reads the files a linted file imports, for a program that is not the CLI: the
// editor's language server installs a host that answers from open documents and from files its
// client fetched, forgets resolutions when files appear or vanish outside the host's versions, and
// forgets the modules whose summaries may rest on a module that changed.

export { diskHost, moduleHost, setModuleHost, type FileVersion, type ModuleHost } from '../model/project/host.js';
export { clearResolutions } from '../model/project/resolve.js';
export { forgetModule } from '../model/project/modules.js';
