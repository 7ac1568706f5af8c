import type { ClientCapabilities } from '../protocol/wire-types.js';
import {
  mergeCapabilities,
  missingCapabilities,
  supportsElicitation,
  supportsRoots,
  supportsSampling,
} from './client-capability-gate.js';

describe('client capability gate', () => {
  it.each<[ClientCapabilities, boolean, boolean]>([
    [{}, false, false],
    [{ elicitation: {} }, true, false],
    [{ elicitation: { form: {} } }, true, false],
    [{ elicitation: { url: {} } }, false, true],
    [{ elicitation: { form: {}, url: {} } }, true, true],
    [{ elicitation: true as unknown as object }, false, false],
    [{ elicitation: null as unknown as object }, false, false],
    [{ elicitation: { url: true as unknown as object } }, false, false],
  ])('elicitation %p: form %p, url %p', (caps, form, url) => {
    expect(supportsElicitation(caps, 'form')).toBe(form);
    expect(supportsElicitation(caps, 'url')).toBe(url);
  });

  it('needs sampling.tools for tools or toolChoice, sampling.context for includeContext', () => {
    const base = { messages: [], maxTokens: 10 };
    expect(supportsSampling({ sampling: {} }, base)).toBe(true);
    expect(supportsSampling({ sampling: {} }, { ...base, toolChoice: { mode: 'auto' } })).toBe(false);
    expect(supportsSampling({ sampling: { tools: {} } }, { ...base, tools: [] })).toBe(true);
    expect(supportsSampling({ sampling: {} }, { ...base, includeContext: 'allServers' })).toBe(false);
    expect(supportsSampling({ sampling: { context: {} } }, { ...base, includeContext: 'allServers' })).toBe(true);
    expect(supportsSampling({}, base)).toBe(false);
    expect(
      missingCapabilities(
        { method: 'sampling/createMessage', params: { ...base, tools: [], includeContext: 'thisServer' } },
        {},
      ),
    ).toEqual({
      sampling: { tools: {}, context: {} },
    });
  });

  it('needs roots for roots/list', () => {
    expect(supportsRoots({ roots: { listChanged: true } })).toBe(true);
    expect(supportsRoots({})).toBe(false);
    expect(missingCapabilities({ method: 'roots/list' }, { roots: {} })).toBeUndefined();
  });

  it('merges requirements into one ClientCapabilities object', () => {
    expect(mergeCapabilities([{ elicitation: { form: {} } }, { elicitation: { url: {} } }, { sampling: {} }])).toEqual({
      elicitation: { form: {}, url: {} },
      sampling: {},
    });
  });
});
