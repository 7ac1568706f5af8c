// Reads what one run of the conformance CLI left behind (its output and the checks.json of each
// scenario) and turns it into counts, problems and summary lines. Used by run-conformance.mjs.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line no-control-regex -- matches the terminal colour codes the suite prints
const ANSI = /\u001b\[[0-9;]*m/g;

/** The output without colour codes. */
export const plain = (text) => text.replace(ANSI, '');

/** `✓ name: 3 passed, 0 failed` lines of the suite's summary, joined with each checks.json. */
export function collectScenarios(output, outDir) {
  const scenarios = new Map();
  const summaryAt = output.lastIndexOf('=== SUMMARY ===');
  const summary = summaryAt === -1 ? '' : output.slice(summaryAt);
  for (const match of summary.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed$/gmu)) {
    scenarios.set(match[1], { passed: Number(match[2]), failed: Number(match[3]), checks: undefined });
  }
  for (const entry of existsSync(outDir) ? readdirSync(outDir, { withFileTypes: true }) : []) {
    if (!entry.isDirectory()) continue;
    const name = entry.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    const file = join(outDir, entry.name, 'checks.json');
    if (!existsSync(file)) continue;
    // A single --scenario run prints no summary; a suite run lists every scenario in it.
    const record = scenarios.get(name) ?? { passed: 0, failed: 0, checks: undefined, notInSummary: summaryAt !== -1 };
    try {
      record.checks = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      record.unreadable = String(error);
    }
    scenarios.set(name, record);
  }
  return scenarios;
}

/** Scenarios the CLI ran but did not score (requirements mode): `  ✗ tasks-lifecycle (extension)`. */
export function unscoredScenarios(output) {
  const start = output.lastIndexOf('Not scored for ');
  if (start === -1) return new Set();
  const names = [];
  for (const line of output.slice(start).split('\n').slice(1)) {
    const match = /^\s+[✓✗] (\S+) \(/u.exec(line);
    if (!match) break;
    names.push(match[1]);
  }
  return new Set(names);
}

/** A single --scenario run the CLI skipped because the scenario does not exist at that revision. */
export function notApplicable(output) {
  return /^SKIPPED: scenario '[^']+' is not applicable at spec version/mu.test(output);
}

/** One line per pass, counted by this script from the checks (warnings included). */
export function tally(pass) {
  const unscored = unscoredScenarios(pass.output);
  const count = (names) => {
    let clean = 0;
    let failing = 0;
    let warning = 0;
    for (const name of names) {
      const checks = pass.scenarios.get(name)?.checks ?? [];
      const failed = pass.scenarios.get(name)?.failed > 0 || checks.some((c) => c.status === 'FAILURE');
      const warned = checks.some((c) => c.status === 'WARNING');
      if (failed) failing++;
      else if (warned) warning++;
      else clean++;
    }
    return `${names.length} scenarios: ${clean} passed, ${failing} failed, ${warning} passed with warnings`;
  };
  const all = [...pass.scenarios.keys()];
  const scored = all.filter((name) => !unscored.has(name));
  if (unscored.size === 0) return `${count(scored)}`;
  return `scored ${count(scored)}; not scored ${count([...unscored])}`;
}

/** The lines worth keeping from a pass's output: from its summary on. */
export function summaryLines(output) {
  const start = output.lastIndexOf('=== SUMMARY ===');
  return (start === -1 ? output.split('\n').slice(-15).join('\n') : output.slice(start)).trim();
}

/** Every FAILURE and WARNING of one scenario, one line each, or why its results are missing. */
function scenarioProblems(scenario, record) {
  const problems = [];
  if (record.notInSummary) problems.push(`${scenario}: results written but not in the suite's summary`);
  if (record.unreadable) problems.push(`${scenario}: unreadable checks.json (${record.unreadable})`);
  if (!record.checks) {
    problems.push(
      `${scenario}: no checks.json was written (the scenario crashed?)${record.failed ? `, ${record.failed} failed` : ''}`,
    );
    return problems;
  }
  for (const check of record.checks) {
    if (check.status === 'FAILURE' || check.status === 'WARNING') {
      const message = (check.errorMessage ?? check.description ?? '').split('\n')[0];
      problems.push(`${scenario}: ${check.status} [${check.id}] ${message}`);
    }
  }
  return problems;
}

/** Problems of one pass: failures, warnings and missing results, outside the tolerated scenarios. */
export function problemsOf(pass, tolerated = () => false) {
  const problems = [];
  for (const [scenario, record] of pass.scenarios) {
    if (!tolerated(scenario)) problems.push(...scenarioProblems(scenario, record));
  }
  return problems;
}

/** For the summary: how each scenario the pass ran but did not score came out. */
export function unscoredOutcomes(pass) {
  const lines = [];
  for (const scenario of unscoredScenarios(pass.output)) {
    const record = pass.scenarios.get(scenario);
    const problems = record ? scenarioProblems(scenario, record) : [`${scenario}: no results`];
    if (problems.length === 0) lines.push(`${scenario}: passed`);
    else lines.push(...problems);
  }
  return lines;
}
