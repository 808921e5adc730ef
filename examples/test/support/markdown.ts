/** Just enough Markdown for the docs tests: fenced code blocks, links and GitHub's heading anchors. */

export interface Block {
  info: string;
  /** 1-based line of the opening fence. */
  fenceLine: number;
  code: string[];
}

/** Fenced code blocks (``` or ~~~, up to 3 spaces of indent) with their info string and lines. */
export function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let open: { block: Block; fence: string; indent: number } | undefined;
  lines.forEach((line, index) => {
    if (!open) {
      const m = /^( {0,3})(`{3,}|~{3,})\s*(.*)$/.exec(line);
      if (m) {
        const block = { info: m[3]!.trim(), fenceLine: index + 1, code: [] };
        open = { block, fence: m[2]!, indent: m[1]!.length };
        blocks.push(block);
      }
      return;
    }
    const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (close && close[1]![0] === open.fence[0] && close[1]!.length >= open.fence.length) {
      open = undefined;
      return;
    }
    open.block.code.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)));
  });
  if (open) throw new Error(`unclosed code fence at line ${open.block.fenceLine}`);
  return blocks;
}

export interface Link {
  target: string;
  line: number;
}

/**
 * Every link outside code: inline `[text](target)`, images, reference definitions
 * `[name]: target` and autolinks `<https://…>`, with their 1-based line.
 */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  const inCode = codeLines(markdown);
  markdown.split('\n').forEach((text, index) => {
    if (inCode.has(index + 1)) return;
    const prose = text.replace(/`[^`]*`/g, '');
    const patterns = [
      /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
      /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g,
      /<([a-z][a-z0-9+.-]*:[^\s>]+)>/gi,
    ];
    for (const pattern of patterns) {
      for (const m of prose.matchAll(pattern)) found.push({ target: m[1]!, line: index + 1 });
    }
  });
  return found;
}

/** Whether a link target names a scheme (`https:`, `mailto:`…) rather than a path in the repository. */
export function isAbsoluteUrl(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** GitHub's anchors for a document's headings. */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const inCode = codeLines(markdown);
  const seen = new Map<string, number>();
  markdown.split('\n').forEach((text, index) => {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!m || inCode.has(index + 1)) return;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  });
  return slugs;
}

/** 1-based numbers of the lines inside fenced code blocks, fences included. */
function codeLines(markdown: string): Set<number> {
  return new Set(
    fencedBlocks(markdown).flatMap((b) => [
      b.fenceLine,
      ...b.code.map((_, i) => b.fenceLine + i + 1),
      b.fenceLine + b.code.length + 1,
    ]),
  );
}
