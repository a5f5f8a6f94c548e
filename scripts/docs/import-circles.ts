/**
 * Import circles: groups of files that import each other round a loop (the strongly connected
 * groups of the import graph with more than one file, or a file that imports itself). The lint
 * rule `import-x/no-cycle` refuses them; this counts them for the figures.
 */

/** The circles of `imports` (file -> files it imports), each sorted, in the order of their first file. */
export function importCircles(imports: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  // Tarjan's algorithm, iterative so that a long chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const start of [...imports.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { file: string; targets: string[]; i: number }[] = [];
    const enter = (file: string) => {
      index.set(file, next);
      low.set(file, next++);
      stack.push(file);
      onStack.add(file);
      work.push({ file, targets: [...(imports.get(file) ?? [])].sort(), i: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.i < frame.targets.length) {
        const target = frame.targets[frame.i++]!;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.file);
      if (group.length > 1 || imports.get(frame.file)?.has(frame.file)) circles.push(group.sort());
    }
  }
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
