#!/usr/bin/env python3
"""Instructions per job from tools/bench/callgrind.sh's output, as a Markdown table.

  callgrind_summary.py OUTDIR LABEL...

Per job = inclusive count / jobs run, where jobs = (iterations + 1 warm-up) x graph nodes
(+1 gate job for Exec). `worker` = the workers' pull loop (workerLoop, inclusive: taking,
running, finalising, releasing, waking, grooming and idling), `idle` = the part of it in
park/idleSpin/spinUntil/tendNext/backoff (under valgrind threads run one at a time, so
idle counts depend on its scheduling: compare the hot part, worker - idle),
`post` = acquire + submit on the posting thread (Batch: PostBatch's acquire + link + submit,
submit including the whole batch's count, wiring and publish).
"""
import re
import sys
from pathlib import Path

NODES = {'Chain10k': 10000, 'Grid100x100': 10000, 'Isolated10k': 10000, 'Fan1000': 1002,
         'Burst1024': 1024, 'Burst64': 64}
# With -g the function is prefixed by its file, without it by ???.
FUNC = re.compile(r'\s*([\d,]+) \([^)]*\)\s+(?:\S*(?:SchedulerCore|JobPool|BatchPosting)\.cpp|\?\?\?):'
                  r'pullsched::(?:detail::)?(?:SchedulerCore::|PostBatch::)?(\w+)\(.*\[')


def counts(path):
    d = {}
    for line in path.read_text().splitlines():
        m = FUNC.match(line)
        if m and m.group(2) not in d:
            d[m.group(2)] = int(m.group(1).replace(',', ''))
    return d


def main():
    out, labels = Path(sys.argv[1]), sys.argv[2:]
    head = '| variant | graph | ' + ' | '.join(f'{l}: hot (worker, post)' for l in labels) + ' |'
    print(head)
    print('|' + '---|' * (2 + len(labels)))
    for v in ('Exec', 'Post', 'Batch'):
        for g, n in NODES.items():
            cells = []
            for l in labels:
                f = out / f'{l}-{v}-{g}.inc'
                txt = out / f'{l}-{v}-{g}.txt'
                if not f.exists():
                    cells.append('n/a')
                    continue
                it = int(re.search(r'iterations:(\d+)', txt.read_text()).group(1))
                jobs = (it + 1) * (n + (1 if v == 'Exec' else 0))
                d = counts(f)
                idle = sum(d.get(k, 0) for k in ('spinUntil', 'tendNext', 'backoff'))
                idle += d['park'] if 'park' in d else d.get('idleSpin', 0)
                worker = d.get('workerLoop', 0)
                post = d.get('acquire', 0) + d.get('submit', 0) + d.get('link', 0)
                cells.append(f'{(worker - idle) / jobs:.0f} ({worker / jobs:.0f}, {post / jobs:.0f})')
            print(f'| {v} | {g} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    main()
