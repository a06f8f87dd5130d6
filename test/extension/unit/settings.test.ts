// Settings normalisation: whatever the user wrote becomes one typed shape, and the rule options map to ESLint settings.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  DEFAULT_SETTINGS,
  LockKeyPattern,
  RuleSettings,
  Settings,
  StringList,
  toSharedSettings,
} from '../../../extension/src/shared/settings';

describe('extension settings', () => {
  it('uses the defaults for a missing or malformed section', () => {
    assert.deepEqual(Settings.from(undefined), DEFAULT_SETTINGS);
    assert.deepEqual(Settings.from('locksmith'), DEFAULT_SETTINGS);
    assert.deepEqual(Settings.from([1, 2]), DEFAULT_SETTINGS);
  });

  it('keeps valid values and replaces invalid ones by their default', () => {
    const settings = Settings.from({
      enable: false,
      run: 'onSave',
      maxFileSizeKb: 64,
      typeAware: true,
      lockKeyPattern: '^mutex:',
      efficiencyLocks: ['cache:*'],
      fenceColumns: ['fence_token'],
    });
    assert.deepEqual(settings, {
      enable: false,
      run: 'onSave',
      rules: {},
      lockKeyPattern: '^mutex:',
      efficiencyLocks: ['cache:*'],
      fenceColumns: ['fence_token'],
      maxFileSizeKb: 64,
      typeAware: true,
    });
    const invalid = Settings.from({ enable: 'yes', run: 'sometimes', maxFileSizeKb: -3, typeAware: 1 });
    assert.equal(invalid.enable, true);
    assert.equal(invalid.run, 'onType');
    assert.equal(invalid.maxFileSizeKb, DEFAULT_SETTINGS.maxFileSizeKb);
    assert.equal(invalid.typeAware, false);
    assert.equal(Settings.from({ maxFileSizeKb: '128' }).maxFileSizeKb, 128);
  });

  it('normalises rule severities, with or without the locksmith/ prefix', () => {
    assert.deepEqual(
      RuleSettings.from({
        'locksmith/no-unsafe-release': 'off',
        'no-split-acquire': 1,
        'require-lock-ttl': ['error', {}],
        'no-lock-takeover': 'loud',
        '': 'off',
      }),
      { 'no-unsafe-release': 'off', 'no-split-acquire': 'warn', 'require-lock-ttl': 'error' },
    );
    assert.deepEqual(RuleSettings.from(['no-unsafe-release']), {});
  });

  it('drops an empty or invalid lock key pattern, so the plugin default applies', () => {
    assert.equal(LockKeyPattern.from(''), null);
    assert.equal(LockKeyPattern.from('   '), null);
    assert.equal(LockKeyPattern.from('lock(('), null);
    assert.equal(LockKeyPattern.from(42), null);
    assert.equal(LockKeyPattern.from('^lock:'), '^lock:');
  });

  it('turns string lists into trimmed, unique, non-empty strings', () => {
    assert.deepEqual(StringList.from([' a ', 'a', '', 3, 'b']), ['a', 'b']);
    assert.deepEqual(StringList.from('single'), ['single']);
    assert.deepEqual(StringList.from({ a: 1 }), []);
  });

  it('maps rule options to ESLint shared settings under settings.locksmith, leaving defaults to the plugin', () => {
    assert.deepEqual(toSharedSettings(Settings.from({})), { locksmith: {} });
    assert.deepEqual(toSharedSettings(Settings.from({ lockKeyPattern: 'mutex', efficiencyLocks: ['cache'], fenceColumns: ['epoch'] })), {
      locksmith: { lockKeyPattern: 'mutex', efficiencyLocks: ['cache'], fenceColumns: ['epoch'] },
    });
  });
});
