// Wires @typescript-eslint/rule-tester to mocha's lifecycle hooks.

import { RuleTester } from '@typescript-eslint/rule-tester';
import { after, describe, it } from 'mocha';

RuleTester.afterAll = after;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;
