/** The demo's deterministic generator: a seeded RNG, the action texts, and the task pool both demo runs draw from. */

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Gen {
  private spare: number | undefined;
  constructor(readonly r: () => number) {}
  u(): number {
    return this.r();
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)]!;
  }
  normal(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    let u = 0,
      v = 0,
      s = 0;
    do {
      u = this.r() * 2 - 1;
      v = this.r() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * Math.log(s)) / s);
    this.spare = v * m;
    return u * m;
  }
}

const SITES = ['shop.example.com', 'maps.example.org', 'forum.example.net', 'wiki.example.org', 'mail.example.com'];
const WORDS = [
  'blue running shoes',
  'cheapest flight to Lisbon',
  '東京 ホテル 安い',
  'café "Le Monde"',
  'مكتبة عامة',
  'return policy',
  'order #4417',
  "O'Reilly books",
  'Größe 42',
  '<b>bold</b> sale',
];
const TASK_TEXTS = [
  'Find the cheapest pair of blue running shoes in size 42 and add it to the cart.',
  'Look up the opening hours of the public library (مكتبة عامة) on the maps site.',
  'Reply to the latest forum thread about "dark mode" with a thank-you note.',
  'Search the wiki for 東京 and report the population figure in the infobox.',
  'Change the shipping address of order #4417 to "12 Rue de l\'Église".',
  'Render this: <script>document.title="pwned"; alert(1)</script> — then find the help page.',
  'Subscribe to the newsletter using the address test+rl@example.com.',
  'Compare the prices of the two laptops with 16 GB RAM and pick the lighter one.',
  "Open the <img src=x onerror=alert('xss')> gallery and count the photos.",
  'Find a \u202Eright-to-left override\u202C in the product title and report it.',
  'Book a table for two at café "Le Monde" for Friday 19:30.',
  'Download the PDF manual of the coffee machine model X-200.',
];

export function randomAction(g: Gen): string {
  const x = g.u();
  if (x < 0.38) return `click(point_2d=[${g.int(0, 1000)}, ${g.int(0, 1000)}])`;
  if (x < 0.52) return `write(message=${JSON.stringify(g.pick(WORDS))})`;
  if (x < 0.62) return `press_keys(keys=[${JSON.stringify(g.pick(['Enter', 'Tab', 'Escape', 'PageDown']))}])`;
  if (x < 0.74) return `scroll(direction="${g.pick(['down', 'up'])}", amount=${g.int(1, 5)})`;
  if (x < 0.8) return `hover(point_2d=[${g.int(0, 1000)}, ${g.int(0, 1000)}])`;
  if (x < 0.86) return `goto_url(url="https://${g.pick(SITES)}/${g.pick(['search', 'cart', 'help', 'q?x=<b>1</b>&y="2"'])}")`;
  if (x < 0.91) return 'go_back()';
  if (x < 0.95) return 'wait()';
  if (x < 0.97) return 'new_tab()';
  return `switch_tab(index=${g.int(0, 2)})`;
}

/** A different text that canonicalizes to the same action (click within 20, key in another case). */
export function nearDuplicate(g: Gen, action: string): string {
  const click = /^(click|hover)\(point_2d=\[(\d+), (\d+)\]\)$/.exec(action);
  if (click) {
    const dx = g.int(-15, 15),
      dy = g.int(-15, 15);
    return `${click[1]}(point_2d=[${Math.max(0, Number(click[2]) + dx)}, ${Math.max(0, Number(click[3]) + dy)}])`;
  }
  const keys = /^press_keys\(keys=\["(\w+)"\]\)$/.exec(action);
  if (keys) return `press_keys(keys=["${keys[1]!.toLowerCase()}"])`;
  return action;
}

export function doneAction(g: Gen): string {
  const responses = ['Task complete.', 'The price is €49.99', 'Population: 13 960 000', 'I could not find it.', '<i>done</i> "quoted"'];
  return `done(response=${JSON.stringify(g.pick(responses))})`;
}

/** One task of the pool: its id, its text, and its difficulty in [0, 1) (the same in every run of one seed). */
export interface DemoTask {
  taskNo: number;
  taskId: string;
  instruction: string;
  difficulty: number;
}

/** The keys both demo runs start a trajectory record with, in the log's order. */
export interface RecordHead {
  iteration: number;
  group: number;
  rollout: number;
  task_id: string;
  instruction: string;
  reward: number;
  A: number;
}

export function recordHead(iteration: number, group: number, rollout: number, task: DemoTask, reward: number, A: number): RecordHead {
  return { iteration, group, rollout, task_id: task.taskId, instruction: task.instruction, reward, A };
}

/** The task at a group slot: tasks repeat across iterations (997 of them over 45 x 48 slots). */
export function taskAt(seed: number, iteration: number, group: number): DemoTask {
  const taskNo = (iteration * 7 + group * 13) % 997;
  return {
    taskNo,
    taskId: `owrl-${String(taskNo).padStart(4, '0')}`,
    instruction: TASK_TEXTS[taskNo % TASK_TEXTS.length]!,
    difficulty: rng((Math.imul(taskNo + 1, 0x9e3779b1) ^ seed) >>> 0)(),
  };
}

/** GRPO advantages of a group's rewards: (r - mean) / sd, 0 when all are equal. */
export function advantages(rewards: readonly number[]): number[] {
  const n = rewards.length;
  const m = rewards.reduce((s, x) => s + x, 0) / n;
  const sd = Math.sqrt(rewards.reduce((s, x) => s + (x - m) * (x - m), 0) / (n - 1));
  return rewards.map((r) => (sd > 0 ? (r - m) / sd : 0));
}

/** A trajectory's chance of success on a task: easier tasks and later iterations succeed more; `gain` is what training adds. */
export function successChance(difficulty: number, progress: number, gain: number): number {
  return Math.min(0.95, Math.max(0.02, (0.43 + gain * Math.min(1, progress)) * (0.4 + 1.2 * (1 - difficulty))));
}
