#!/usr/bin/env node
// Writes docs/reference/configuration.md from the TSDoc of the option interfaces, so the page
// cannot drift from the code: every property of each interface below (those of the interfaces it
// extends first, then its own; nested option interfaces and inline objects expanded as `a.b`),
// with its type and its TSDoc, which states the default. An options interface with a table of
// checks and defaults (`defineSection<McpLimitsOptions>()({ … })`, src/core/option-section.ts) is
// held to it: a default its TSDoc states ("Default 32.") must be the table's, and a field the table
// marks moved (`movedTo`) must be `@deprecated` in the interface, and only those.
//
//   node scripts/docs-configuration.mjs           rewrites the page
//   node scripts/docs-configuration.mjs --check   exits 1 when the page is not what it would write
//
// test/docs/configuration-reference.e2e-spec.ts runs the check in `npm test`.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = join(ROOT, 'docs/reference/configuration.md');

/** The option interfaces, in the order of the page. */
const SECTIONS = [
  {
    title: 'McpModule.forRoot',
    file: 'src/mcp.options.ts',
    type: 'McpModuleOptions',
    intro:
      '`McpModule.forRoot(options)` or `McpModule.forRootAsync({ imports, inject, useFactory })` (or `useClass` / ' +
      '`useExisting` with `createMcpOptions()`). Options are validated at startup; a mistake stops the application ' +
      'with a message that lists every problem and says what to set.',
    // Not part of the interface: the module builder's extra (src/mcp.module-definition.ts).
    extra: [
      [
        'isGlobal',
        'boolean',
        'Register the module globally, so that its injectables reach every module. Default true.',
      ],
    ],
  },
  {
    title: 'McpOAuth2Module.forRoot',
    file: 'src/oauth2/mcp-oauth2.options.ts',
    type: 'McpOAuth2Options',
    intro:
      '`@mocapi/nestjs/oauth2`, [security.md](../security.md#oauth-21-mocapinestjsoauth2). `forRootAsync` takes ' +
      '`imports` / `inject` / `useFactory`, or `useClass` / `useExisting` with `createMcpOAuth2Options()`.',
  },
  {
    title: 'McpAuthorizationServerModule.forRoot',
    file: 'src/authorization-server/mcp-authorization-server.options.ts',
    type: 'McpAuthorizationServerOptions',
    intro:
      '`@mocapi/nestjs/authorization-server`, [authorization.md](../authorization.md). `forRootAsync` takes ' +
      '`imports` / `inject` / `useFactory`, or `useClass` / `useExisting` with `createMcpAuthorizationServerOptions()`.',
  },
  {
    title: 'McpRedisModule.forRoot',
    file: 'src/redis/mcp-redis.options.ts',
    type: 'McpRedisOptions',
    intro:
      '`@mocapi/nestjs/redis`, [production.md](../production.md#sharing-state-through-redis). Give `connection` or ' +
      '`client`, not both. `forRootAsync` takes `imports` / `inject` / `useFactory`, or `useClass` / `useExisting`.',
  },
  {
    title: 'McpTaskQueueModule.forRoot',
    file: 'src/bullmq/mcp-task-queue.options.ts',
    type: 'McpTaskQueueOptions',
    intro:
      '`@mocapi/nestjs/bullmq`, [tasks.md](../tasks.md#running-tasks-on-a-queue-mocapinestjsbullmq). Give `connection` ' +
      'or `client`, not both. `forRootAsync` takes `imports` / `inject` / `useFactory`, or `useClass` / `useExisting`.',
  },
  {
    title: 'McpClientModule.forRoot',
    file: 'src/client/mcp-client.options.ts',
    type: 'McpClientOptions',
    intro:
      '`@mocapi/nestjs/client`, [composition.md](../composition.md). `forRootAsync` takes `imports` / `inject` / ' +
      '`useFactory`, or `useClass` / `useExisting`.',
  },
  {
    title: 'McpClientModule: one server',
    file: 'src/client/mcp-client.options.ts',
    type: 'McpClientServerOptions',
    intro: 'Each entry of `servers`, by the name `@InjectMcpClient(name)` takes. Give `url` or `stdio`.',
  },
  {
    title: 'McpGatewayModule.forRoot',
    file: 'src/gateway/mcp-gateway.options.ts',
    type: 'McpGatewayOptions',
    intro:
      '`@mocapi/nestjs/gateway`, [composition.md](../composition.md). Needs `McpClientModule` for the connections.',
  },
  {
    title: 'McpGatewayModule: one upstream',
    file: 'src/gateway/mcp-gateway.options.ts',
    type: 'McpGatewayUpstream',
    intro: 'Each entry of `upstreams`: a server of `McpClientModule` (`client`) mounted under `prefix`.',
  },
  {
    title: 'McpAppsModule.forRoot',
    file: 'src/apps/mcp-apps.options.ts',
    type: 'McpAppsOptions',
    intro: '`@mocapi/nestjs/apps`, [apps.md](../apps.md).',
  },
  {
    title: 'McpSkillsModule.forRoot',
    file: 'src/skills/mcp-skills.options.ts',
    type: 'McpSkillsOptions',
    intro:
      '`@mocapi/nestjs/skills`, [skills.md](../skills.md). `forRootAsync` takes `imports` / `inject` / `useFactory`, ' +
      'or `useClass` / `useExisting` with `createMcpSkillsOptions()`.',
  },
  {
    title: 'McpOpenTelemetryModule.forRoot',
    file: 'src/opentelemetry/mcp-opentelemetry.module.ts',
    type: 'McpOpenTelemetryOptions',
    intro: '`@mocapi/nestjs/opentelemetry`, [observability.md](../observability.md).',
  },
  {
    title: 'McpTestClient.start',
    file: 'src/testing/mcp-test-client.ts',
    type: 'McpTestClientOptions',
    intro: '`@mocapi/nestjs/testing`, [testing.md](../testing.md).',
  },
  {
    title: 'bootstrapStdio',
    file: 'src/transport/stdio/bootstrap-stdio.ts',
    type: 'BootstrapStdioOptions',
    intro: '`bootstrapStdio(module, options)`, [transports.md](../transports.md#stdio).',
  },
];

/** Sections documented by the TSDoc of a class or constant rather than an options interface. */
const NOTES = [
  {
    title: 'McpThrottlerModule',
    file: 'src/throttler/mcp-throttler.module.ts',
    symbols: ['McpThrottlerModule', 'MCP_THROTTLER_DEFAULTS'],
    intro: '`@mocapi/nestjs/throttler`, [production.md](../production.md#rate-limits-mocapinestjsthrottler).',
  },
];

// `{@link X}` as code; TSDoc's own line breaks as spaces.
const oneLine = (text) =>
  text
    .replace(/\{@link\s+([^}\s]+)\s*\}/g, '`$1`')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
const cell = (text) => oneLine(text).replaceAll('|', '\\|');

function docOf(checker, node) {
  const symbol = node.name && checker.getSymbolAtLocation(node.name);
  return symbol ? symbolDoc(checker, symbol) : '';
}

function symbolDoc(checker, symbol) {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker));
  const deprecated = symbol.getJsDocTags(checker).find((tag) => tag.name === 'deprecated');
  return deprecated ? `**Deprecated:** ${ts.displayPartsToString(deprecated.text)} ${text}`.trim() : text;
}

/** The interface declaration a type node names, when it is one of ours (under src/). */
function ourInterface(checker, typeNode) {
  if (!typeNode || !ts.isTypeReferenceNode(typeNode)) return undefined;
  let symbol = checker.getSymbolAtLocation(typeNode.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.declarations?.find(ts.isInterfaceDeclaration);
  return declaration && declaration.getSourceFile().fileName.startsWith(join(ROOT, 'src')) ? declaration : undefined;
}

/**
 * The tables of the option sections under src/: `defineSection<McpLimitsOptions>()({ … })`, by the
 * file and name of the interface they are typed by ('/…/mcp-limits.options.ts#McpLimitsOptions'),
 * each a map of its fields' initializers by option name.
 */
function sectionTables(program) {
  const tables = new Map();
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.startsWith(join(ROOT, 'src')) || source.isDeclarationFile) continue;
    const visit = (node) => {
      const define = ts.isCallExpression(node) && node.expression;
      if (
        define &&
        ts.isCallExpression(define) &&
        define.expression.getText() === 'defineSection' &&
        define.typeArguments?.length === 1 &&
        node.arguments[0] &&
        ts.isObjectLiteralExpression(node.arguments[0])
      ) {
        const fields = new Map();
        for (const property of node.arguments[0].properties) {
          if (ts.isPropertyAssignment(property)) fields.set(property.name.getText(), property.initializer);
        }
        tables.set(`${source.fileName}#${define.typeArguments[0].getText()}`, fields);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return tables;
}

/** The table of checks and defaults of an options interface, when it has one. */
const tableOf = (tables, declaration) => tables.get(`${declaration.getSourceFile().fileName}#${declaration.name.text}`);

/**
 * The default a field's definition gives, as its TSDoc would write it ('4194304', "'/mcp'", 'true'),
 * when it is a literal or a product of numbers (`option(CHECK, 4 * 1024 * 1024)`), else undefined.
 */
function definedDefault(initializer) {
  if (!initializer || !ts.isCallExpression(initializer)) return undefined;
  if (!['option', 'optionWith'].includes(initializer.expression.getText())) return undefined;
  const text = initializer.arguments[1]?.getText().replaceAll('_', '');
  if (text === undefined) return undefined;
  if (/^\d+(\s*\*\s*\d+)*$/.test(text)) return String(text.split('*').reduce((product, n) => product * Number(n), 1));
  return /^(true|false|'[^']*')$/.test(text) ? text : undefined;
}

/**
 * Fails when a field's TSDoc states a default ("Default 32.") other than the one its table gives,
 * or when the table marks it moved (`movedTo`) and its TSDoc does not say `@deprecated`, or the
 * other way round: the interface and its table are kept the same.
 */
function checkAgainstTable(key, doc, initializer) {
  const stated = /\bDefault:? ('[^']*'|[^\s,.:;()]+)/.exec(doc)?.[1];
  const defined = definedDefault(initializer);
  if (stated !== undefined && defined !== undefined && stated !== defined) {
    throw new Error(`docs-configuration: \`${key}\` says "Default ${stated}" but its table gives ${defined}`);
  }
  const moved = ts.isCallExpression(initializer) && initializer.expression.getText() === 'movedTo';
  if (moved !== doc.startsWith('**Deprecated:**')) {
    throw new Error(
      `docs-configuration: \`${key}\` is ${moved ? '' : 'not '}moved in its table (movedTo) but ${moved ? 'not ' : ''}@deprecated in its interface`,
    );
  }
}

/** `readonly X[]`, `X[]` or `ReadonlyArray<X>`: X, else undefined. */
function elementType(typeNode) {
  let node = typeNode;
  if (node && ts.isTypeOperatorNode(node)) node = node.type;
  if (node && ts.isArrayTypeNode(node)) return node.elementType;
  return undefined;
}

/**
 * The rows of one interface: its bases' properties first, then its own, nested ones expanded; each
 * held to the interface's table of checks and defaults, when it has one (`tables`).
 */
function rows(checker, tables, declaration, prefix, seen = new Set()) {
  if (seen.has(declaration)) return [];
  seen.add(declaration);
  const out = [];
  for (const clause of declaration.heritageClauses ?? []) {
    for (const base of clause.types) {
      let symbol = checker.getSymbolAtLocation(base.expression);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const found = symbol?.declarations?.find(ts.isInterfaceDeclaration);
      if (found) out.push(...rows(checker, tables, found, prefix, seen));
    }
  }
  out.push(...memberRows(checker, tables, declaration.members, prefix, seen, tableOf(tables, declaration)));
  return out;
}

function memberRows(checker, tables, members, prefix, seen, table) {
  const out = [];
  for (const member of members) {
    if (!ts.isPropertySignature(member)) continue;
    const key = `${prefix}${member.name.getText()}`;
    const name = `\`${key}\`${member.questionToken ? '' : ' (required)'}`;
    // `card?: McpServerCardOptions | false`: the options interface of a union is expanded as well.
    const nested =
      ourInterface(checker, member.type) ??
      (member.type && ts.isUnionTypeNode(member.type)
        ? member.type.types.map((type) => ourInterface(checker, type)).find(Boolean)
        : undefined);
    const element = elementType(member.type);
    const nestedElement = element && ourInterface(checker, element);
    const doc = docOf(checker, member);
    if (table) checkAgainstTable(key, doc, table.get(member.name.getText()));
    if (nested && /Options$/.test(nested.name.text)) {
      out.push([name, ts.isUnionTypeNode(member.type) ? oneLine(member.type.getText()) : nested.name.text, doc]);
      out.push(...rows(checker, tables, nested, `${key}.`, seen));
    } else if (member.type && ts.isTypeLiteralNode(member.type)) {
      out.push([name, 'object', doc]);
      out.push(...memberRows(checker, tables, member.type.members, `${key}.`, seen));
    } else if (nestedElement && /Options$/.test(nestedElement.name.text)) {
      out.push([name, `${nestedElement.name.text}[]`, doc]);
      out.push(...rows(checker, tables, nestedElement, `${key}[].`, seen));
    } else {
      out.push([name, oneLine(member.type ? member.type.getText() : 'unknown'), doc]);
    }
  }
  return out;
}

/**
 * The TSDoc of a class or constant as written: the compiler's reading would take a package name
 * such as `@nestjs/throttler` in the text for a tag.
 */
function rawComment(node) {
  const target = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const source = target.getSourceFile().text;
  const range = (ts.getLeadingCommentRanges(source, target.getFullStart()) ?? []).at(-1);
  if (!range) return '';
  return source
    .slice(range.pos, range.end)
    .replace(/^\/\*\*|\*\/$/g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .filter((line) => !line.startsWith('@'))
    .join('\n');
}

function table(entries) {
  const lines = ['| option | type | meaning |', '| --- | --- | --- |'];
  for (const [name, type, doc] of entries) lines.push(`| ${name} | \`${cell(type)}\` | ${cell(doc) || '—'} |`);
  return lines.join('\n');
}

function declarationNamed(source, name) {
  let found;
  source.forEachChild((node) => {
    if ((ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) && node.name?.text === name) found = node;
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) if (d.name.getText() === name) found = d;
    }
  });
  if (!found) throw new Error(`docs-configuration: ${name} not found in ${source.fileName}`);
  return found;
}

/** The page, as this script writes it. */
export function configurationPage() {
  const files = [...SECTIONS, ...NOTES].map((s) => join(ROOT, s.file));
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const tables = sectionTables(program);
  const parts = [
    '# Configuration reference',
    '',
    '<!-- Generated by scripts/docs-configuration.mjs from the TSDoc in src/: do not edit by hand.',
    '     Change the TSDoc, then run `node scripts/docs-configuration.mjs`; `npm test` fails while this page is stale. -->',
    '',
    'Every option of `McpModule` and of the integration modules, with its type and what its TSDoc says',
    '(the default included). Nested options are written `section.option`.',
  ];
  for (const section of SECTIONS) {
    const source = program.getSourceFile(join(ROOT, section.file));
    const declaration = declarationNamed(source, section.type);
    const entries = rows(checker, tables, declaration, '');
    for (const [name, type, doc] of section.extra ?? []) entries.push([`\`${name}\``, type, doc]);
    parts.push(
      '',
      `## ${section.title}`,
      '',
      section.intro,
      '',
      `\`${section.type}\` (\`${section.file}\`):`,
      '',
      table(entries),
    );
  }
  for (const note of NOTES) {
    const source = program.getSourceFile(join(ROOT, note.file));
    parts.push('', `## ${note.title}`, '', note.intro);
    for (const name of note.symbols) {
      const declaration = declarationNamed(source, name);
      const initializer = ts.isVariableDeclaration(declaration) && declaration.initializer;
      const value = initializer ? ` = \`${oneLine(initializer.getText())}\`` : '';
      parts.push('', `\`${name}\`${value}: ${oneLine(rawComment(declaration))}`);
    }
  }
  return `${parts.join('\n')}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const page = configurationPage();
  if (process.argv.includes('--check')) {
    const current = readFileSync(PAGE, 'utf8');
    if (current !== page) {
      console.error('docs/reference/configuration.md is stale: run `node scripts/docs-configuration.mjs`.');
      process.exit(1);
    }
    console.log('docs/reference/configuration.md is up to date.');
  } else {
    writeFileSync(PAGE, page);
    console.log(`docs-configuration: wrote ${PAGE}`);
  }
}
