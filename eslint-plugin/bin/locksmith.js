#!/usr/bin/env node
// The `locksmith` command; the code lives in the compiled CLI (run `npx tsc -b` first in a checkout).
'use strict';

require('../dist/cli/main.js').main();
