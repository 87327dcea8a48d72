import { parser } from '@lezer/cpp';
import fs from 'node:fs';
const src = fs.readFileSync(process.argv[2], 'utf8');
const tree = parser.parse(src);
const c = tree.cursor();
let depth = 0;
function walk(c, d) {
  const text = src.slice(c.from, c.to).replace(/\n/g,'⏎');
  console.log(' '.repeat(d*2) + c.name + (c.node.firstChild ? '' : ' ' + JSON.stringify(text.slice(0,60))));
  if (c.firstChild()) { do walk(c, d+1); while (c.nextSibling()); c.parent(); }
}
walk(c, 0);
