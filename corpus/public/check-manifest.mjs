// Checks corpus/public/manifest.json against the corpus files, and brings those files in from git copies of their repositories.
//
//   node corpus/public/check-manifest.mjs                 check: every file present, its sha256 as recorded,
//                                                         aclFunctions and aclWrapped re-derived from its text equal to the manifest's
//   node corpus/public/check-manifest.mjs --from DIR      first write each entry's files from git copies under DIR
//                                                         (DIR/<owner>+<name>/repo, DIR/<owner>+<name>, DIR/<owner>/<name>[/.git]),
//                                                         at the recorded commit, cut to the recorded line ranges; then check
//   node corpus/public/check-manifest.mjs --write         recompute the derived fields (sha256, lineCount, aclFunctions, aclWrapped,
//                                                         constructs) from the files and rewrite manifest.json (after adding an entry),
//                                                         and rewrite not-in-catalogue.md from packages/core/src/acl/functions.ts
//
// The files themselves are third-party code and are not committed (see README.md); they land in corpus/public/<id>/, which git ignores.
// Plain Node, no dependencies. Exit status 0 when everything agrees, 1 otherwise.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const manifestPath = join(here, 'manifest.json');
const reportPath = join(here, 'not-in-catalogue.md');
const cataloguePath = join(here, '..', '..', 'packages', 'core', 'src', 'acl', 'functions.ts');

/** ACL type names that can stand before '(' in a cast or a declaration; they are not calls. */
const TYPE_NAMES = new Set([
  'aclError',
  'aclrtContext',
  'aclrtStream',
  'aclrtEvent',
  'aclrtNotify',
  'aclrtDrvMemHandle',
  'aclrtMemcpyKind',
  'aclrtMemMallocPolicy',
  'aclrtRunMode',
  'aclrtPhysicalMemProp',
  'aclrtMemAttr',
  'aclrtHostRegisterType',
  'aclrtEventRecordedStatus',
  'aclDataBuffer',
  'aclDataType',
  'aclFormat',
  'aclTensorDesc',
  'aclmdlDataset',
  'aclmdlDesc',
  'aclopAttr',
]);

/** Blanks comments, string and character literals (keeping line breaks), so that only code is searched. */
export function codeOnly(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      i += 2;
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) {
        if (text[i] === '\n') out += '\n';
        i++;
      }
      i += 2;
    } else if (c === '"' || c === "'") {
      out += c;
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') {
        if (text[i] === '\\') i++;
        i++;
      }
      out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether the code defines `name` itself: a line `Type [Class::]name(…) {`, the parameters balanced, a body after them. */
function definesItself(code, name) {
  const prefix = /^\s*(?:(?:static|inline|extern|virtual|const|unsigned|struct)\s+)*[\w:<>]+[\s*&]+(?:\w+::)?$/;
  for (const m of code.matchAll(new RegExp(`\\b${escapeRegExp(name)}\\s*\\(`, 'g'))) {
    const lineStart = code.lastIndexOf('\n', m.index) + 1;
    const before = code.slice(lineStart, m.index);
    if (!prefix.test(before) || /^\s*(return|else|case|do|goto)\b/.test(before)) continue;
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (; i < code.length; i++) {
      if (code[i] === '(') depth++;
      else if (code[i] === ')' && --depth === 0) break;
    }
    const after = code.slice(i + 1).trimStart();
    if (after.startsWith('{') || /^const\s*\{/.test(after)) return true;
  }
  return false;
}

/** Names of ACL functions the code calls: acl-prefixed identifiers before '(' that are not types, methods, or defined in the code itself. */
export function aclCalls(code) {
  const names = new Set();
  for (const m of code.matchAll(/(\.|->|\w::|)\s*\b(acl[a-z]*[A-Z]\w*)\s*\(/g)) {
    const [, before, name] = m;
    if (before === '.' || before === '->' || before.endsWith('::')) continue;
    if (TYPE_NAMES.has(name)) continue;
    names.add(name);
  }
  return [...names].filter((name) => !definesItself(code, name)).sort();
}

/** ACL functions called through a project's wrapper named after them (torch_npu's c10_npu::acl::AclrtMapMem and the like). */
export function aclWrapperCalls(code) {
  const names = new Set();
  for (const m of code.matchAll(/\bAcl(rt[A-Z]\w*)\s*\(/g)) {
    if (m[1].endsWith('Exist')) continue;
    names.add(`acl${m[1]}`);
  }
  return [...names].sort();
}

const VMM = /\bacl(rt)?(ReserveMemAddress|ReleaseMemAddress|MallocPhysical|FreePhysical|MapMem|UnmapMem|MemSetAccess)\b/i;
const CONSTRUCTS = [
  ['namespace', (c) => /\bnamespace\b/.test(c)],
  ['using-namespace', (c) => /\busing\s+namespace\b/.test(c)],
  ['static-function', (c) => /^\s*static\s+(inline\s+)?[\w:<>*&\s]+\b\w+\s*\([^;]*\)\s*(const\s*)?\{/m.test(c)],
  ['prototype', (c) => /^[\w:<>*&]+(\s+[\w:<>*&]+)*\s+\**\w+\s*\([^;{}()]*\)\s*;\s*$/m.test(c)],
  ['macro', (c) => /^\s*#\s*define\b/m.test(c)],
  ['macro-check', (c) => /\b[A-Z0-9_]*CHECK[A-Z0-9_]*\s*\(\s*[\w:]*[Aa]cl/.test(c)],
  ['ifdef', (c) => /^\s*#\s*(if|ifdef|ifndef|elif)\b/m.test(c)],
  ['typedef', (c) => /\btypedef\b/.test(c)],
  ['struct', (c) => /\bstruct\s+\w+\s*(:[^;{]*)?\{/.test(c)],
  ['class', (c) => /\bclass\s+\w+\s*(final\s*)?(:[^;{]*)?\{/.test(c) || /^([\w:<>*&]+\s+)*[\w*&]*\b\w+::~?\w+\s*\(/m.test(c)],
  ['inheritance', (c) => /\b(class|struct)\s+\w+\s*(final\s*)?:\s*(public|protected|private)?\s*[\w:]+/.test(c)],
  ['std-vector', (c) => /\bstd::vector\b|\bvector\s*</.test(c)],
  ['std-string', (c) => /\bstd::string\b|\bstring\s+\w+\s*[=;(]/.test(c)],
  ['std-map', (c) => /\bstd::(unordered_)?map\b|\bflat_hash_map\b/.test(c)],
  ['reference', (c) => /\b[\w:<>]+\s*&\s*\w+\s*[,)=;]/.test(c)],
  ['auto', (c) => /\bauto\b/.test(c)],
  ['range-for', (c) => /\bfor\s*\([^;()]*[^:]:[^:][^;()]*\)/.test(c)],
  ['new-delete', (c) => /\bnew\s+[\w:]+\s*[[(]|\bdelete\s*\[\]/.test(c)],
  ['malloc', (c) => /\b(malloc|calloc|realloc)\s*\(/.test(c)],
  ['thread', (c) => /\bstd::thread\b|\bpthread_create\b|\bstd::async\b|\bthread_local\b|\bstd::call_once\b/.test(c)],
  ['mutex', (c) => /\bstd::(mutex|shared_mutex|lock_guard|unique_lock)\b|\bpthread_mutex/.test(c)],
  ['atomic', (c) => /\bstd::atomic\b/.test(c)],
  ['lambda', (c) => /[=(,]\s*\[[&=]?[\w\s,&=*]*\]\s*(\([^)]*\))?\s*(mutable\s*)?(->\s*[\w:<>]+\s*)?\{/.test(c)],
  ['template', (c) => /\btemplate\s*</.test(c)],
  ['exception', (c) => /\bthrow\b|\btry\s*\{|\bcatch\s*\(/.test(c)],
  ['file-io', (c) => /\b(fopen|fread|fwrite|ifstream|ofstream|fstream)\b|\b(ReadFile|WriteFile)\s*\(/.test(c)],
  ['mmap', (c) => /\bmmap\s*\(/.test(c)],
  ['kernel-launch', (c) => /<<<|\bACLRT_LAUNCH_KERNEL\b|\bICPU_RUN_KF\b/.test(c)],
  ['vmm', (c) => VMM.test(c)],
  ['host-register', (c) => /\bacl(rt)?HostRegister/i.test(c)],
  ['events', (c) => /\bacl(rt)?(CreateEvent|RecordEvent|StreamWaitEvent|SynchronizeEvent|EventElapsedTime|QueryEventStatus)/i.test(c)],
  ['streams', (c) => /\baclrtCreateStream\w*\s*\(|\bAclrtCreateStream\w*\s*\(/.test(c)],
  ['multi-stream', (c) => /\baclrtStreamWaitEvent\b/.test(c) || (c.match(/\baclrtCreateStream\w*\s*\(/g) ?? []).length >= 2],
  ['contexts', (c) => /\bacl(rt)?(CreateContext|SetCurrentContext|GetCurrentContext)/i.test(c)],
  ['ipc', (c) => /\bacl(rt)?(IpcMem|MemExportToShareableHandle|MemImportFromShareableHandle|IpcOpenEventHandle)/i.test(c)],
  ['pinned-host', (c) => /\b[Aa]clrtMallocHost\w*\s*\(/.test(c)],
  ['mem-info', (c) => /\baclrtGetMemInfo\s*\(/.test(c)],
  ['run-mode', (c) => /\baclrtGetRunMode\s*\(/.test(c)],
  ['model-exec', (c) => /\baclmdl\w+\s*\(/.test(c)],
];

/** Construct tags found in the code by pattern: a guide for what an entry exercises, not a parse. */
export function constructs(code) {
  return CONSTRUCTS.filter(([, test]) => test(code)).map(([tag]) => tag);
}

function entryDir(entry) {
  return join(here, entry.id);
}

function fileName(file) {
  return file.name ?? basename(file.path);
}

function gitDirFor(root, repo) {
  const [owner, name] = repo.split('/');
  const candidates = [
    join(root, `${owner}+${name}`, 'repo'),
    join(root, `${owner}+${name}`),
    join(root, owner, name, '.git'),
    join(root, owner, name),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'HEAD')) || existsSync(join(dir, 'objects')));
}

/** The kept text: the whole file, or the given 1-based inclusive line ranges joined in order. */
export function cut(text, lines) {
  if (!lines) return text;
  const all = text.split('\n');
  return `${lines.map(([from, to]) => all.slice(from - 1, to).join('\n')).join('\n')}\n`;
}

function bringIn(manifest, root, problems) {
  for (const entry of manifest) {
    const gitDir = gitDirFor(root, entry.repo);
    if (!gitDir) {
      problems.push(`${entry.id}: no git copy of ${entry.repo} under ${root}`);
      continue;
    }
    mkdirSync(entryDir(entry), { recursive: true });
    for (const file of entry.files) {
      let text;
      try {
        text = execFileSync('git', ['--git-dir', gitDir, 'show', `${entry.commit}:${file.path}`], {
          encoding: 'utf8',
          maxBuffer: 64 << 20,
        });
      } catch {
        problems.push(`${entry.id}: ${file.path} is not at ${entry.commit} in ${gitDir}`);
        continue;
      }
      writeFileSync(join(entryDir(entry), fileName(file)), cut(text, file.lines));
    }
  }
}

function sameList(a, b) {
  return JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort());
}

function derive(entry) {
  const texts = entry.files.map((file) => readFileSync(join(entryDir(entry), fileName(file)), 'utf8'));
  const code = texts.map(codeOnly).join('\n');
  return {
    files: entry.files.map((file, i) => ({
      ...file,
      sha256: createHash('sha256').update(texts[i]).digest('hex'),
      lineCount: texts[i].split('\n').length - (texts[i].endsWith('\n') ? 1 : 0),
    })),
    aclFunctions: aclCalls(code),
    aclWrapped: aclWrapperCalls(code),
    constructs: constructs(code),
  };
}

function check(manifest, problems) {
  const ids = new Set();
  for (const entry of manifest) {
    if (ids.has(entry.id)) problems.push(`${entry.id}: id used twice`);
    ids.add(entry.id);
    if (!/^[0-9a-f]{40}$/.test(entry.commit)) problems.push(`${entry.id}: commit is not 40 hex digits`);
    const missing = entry.files.filter((file) => !existsSync(join(entryDir(entry), fileName(file))));
    if (missing.length > 0) {
      for (const file of missing) problems.push(`${entry.id}: ${fileName(file)} is missing (bring it in with --from DIR)`);
      continue;
    }
    const derived = derive(entry);
    derived.files.forEach((file, i) => {
      if (file.sha256 !== entry.files[i].sha256) problems.push(`${entry.id}: ${fileName(file)} sha256 differs from the manifest`);
    });
    if (!sameList(derived.aclFunctions, entry.aclFunctions)) {
      problems.push(
        `${entry.id}: aclFunctions in the text ${JSON.stringify(derived.aclFunctions)} ≠ manifest ${JSON.stringify(entry.aclFunctions)}`,
      );
    }
    if (!sameList(derived.aclWrapped, entry.aclWrapped)) {
      problems.push(
        `${entry.id}: aclWrapped in the text ${JSON.stringify(derived.aclWrapped)} ≠ manifest ${JSON.stringify(entry.aclWrapped)}`,
      );
    }
  }
}

/** The functions PageLens models: the keys of the FUNCTIONS table in functions.ts (`  aclrtMalloc: fn(`). */
function catalogue() {
  return new Set([...readFileSync(cataloguePath, 'utf8').matchAll(/^\s+(acl\w+): fn\(/gm)].map((m) => m[1]));
}

const FAMILIES = [
  ['aclrt', "Runtime (aclrt*): the catalogue's own family"],
  ['aclmdl', 'Model execution (aclmdl*)'],
  ['acl', 'Data buffers, tensor descriptions, utilities (acl* without a family prefix)'],
];

function family(name) {
  if (/^acl(dvpp|op|blas|fv|nn)[A-Z]/.test(name)) return 'Other libraries (acldvpp*, aclop*, aclblas*, aclfv*)';
  const found = FAMILIES.find(([prefix]) => prefix !== 'acl' && name.startsWith(prefix) && /[A-Z]/.test(name[prefix.length]));
  return (found ?? FAMILIES[2])[1];
}

function usageTable(manifest, field, known) {
  const users = new Map();
  for (const entry of manifest) {
    for (const name of entry[field]) {
      if (known.has(name)) continue;
      users.set(name, [...(users.get(name) ?? []), entry.id]);
    }
  }
  const groups = new Map();
  for (const [name, ids] of users) groups.set(family(name), [...(groups.get(family(name)) ?? []), [name, ids]]);
  return groups;
}

/** not-in-catalogue.md: the functions the corpus calls that functions.ts does not model, with how many programs call each. */
function report(manifest) {
  const known = catalogue();
  const lines = [
    '# ACL functions the corpus calls that the catalogue does not model',
    '',
    `Generated by \`node corpus/public/check-manifest.mjs --write\` from manifest.json (${manifest.length} entries) and`,
    `packages/core/src/acl/functions.ts (${known.size} functions). A count is the number of corpus entries whose kept text calls the`,
    'function; the interpreter and `pagelens run` report such a call as *not modeled*. Highest counts first: they are what the',
    'next catalogue work would unblock.',
    '',
  ];
  const direct = usageTable(manifest, 'aclFunctions', known);
  const order = [...FAMILIES.map(([, title]) => title), 'Other libraries (acldvpp*, aclop*, aclblas*, aclfv*)'];
  for (const title of order) {
    const rows = direct.get(title);
    if (!rows) continue;
    rows.sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
    lines.push(`## ${title}`, '', '| function | programs | entries |', '| --- | ---: | --- |');
    for (const [name, ids] of rows) lines.push(`| \`${name}\` | ${ids.length} | ${ids.join(', ')} |`);
    lines.push('');
  }
  const wrapped = [...usageTable(manifest, 'aclWrapped', known).values()].flat();
  lines.push(
    '## Called through a wrapper',
    '',
    'torch_npu calls these through `c10_npu::acl::Aclrt*` wrappers (resolved with dlsym), so they are not in `aclFunctions`;',
    'under `pagelens run` they reach the interposer like any other call.',
    '',
  );
  if (wrapped.length === 0) {
    lines.push('Every wrapped function is in the catalogue.', '');
  } else {
    lines.push('| function | programs | entries |', '| --- | ---: | --- |');
    wrapped.sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
    for (const [name, ids] of wrapped) lines.push(`| \`${name}\` | ${ids.length} | ${ids.join(', ')} |`);
    lines.push('');
  }
  const clean = manifest.filter((entry) => entry.aclFunctions.every((name) => known.has(name))).map((entry) => entry.id);
  lines.push(`## Entries that call only catalogue functions (${clean.length})`, '', clean.join(', '), '');
  return lines.join('\n');
}

/** Formats what --write wrote with the workspace's own biome (as `pnpm lint` expects), when it is installed. */
function formatWithBiome(paths) {
  const biome = join(here, '..', '..', 'node_modules', '.bin', 'biome');
  if (!existsSync(biome)) {
    process.stdout.write('biome is not installed here: run `pnpm format` before committing\n');
    return;
  }
  execFileSync(biome, ['format', '--write', ...paths], { stdio: 'ignore' });
}

function main(args) {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const problems = [];
  const from = args.indexOf('--from');
  if (from >= 0) bringIn(manifest, args[from + 1], problems);
  if (args.includes('--write')) {
    const updated = manifest.map((entry) => ({ ...entry, ...derive(entry) }));
    writeFileSync(manifestPath, `${JSON.stringify(updated, null, 2)}\n`);
    writeFileSync(reportPath, report(updated));
    formatWithBiome([manifestPath, reportPath]);
    process.stdout.write(`wrote ${updated.length} entries to ${manifestPath} and the report ${reportPath}\n`);
    return problems.length === 0 ? 0 : 1;
  }
  check(manifest, problems);
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  const files = manifest.reduce((n, entry) => n + entry.files.length, 0);
  process.stdout.write(
    `${manifest.length} entries, ${files} files: ${problems.length === 0 ? 'all agree' : `${problems.length} problems`}\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
