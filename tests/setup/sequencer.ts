// Orders the files of a run as vitest does (the slowest first, by the durations of earlier runs),
// except that in a project that does not isolate its files (unit) the files of one environment come
// one after another: node files, then happy-dom files. A worker that runs such files keeps its
// process from one file to the next only while the environment stays the same; interleaved, every
// change of environment started a new process and imported React and antd again.
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const DOCBLOCK = /@(?:vitest|jest)-environment\s+([\w-]+)/;

function environmentOf(spec: TestSpecification, cache: Map<string, string>): string {
  let env = cache.get(spec.moduleId);
  if (env === undefined) {
    let head = '';
    try {
      head = readFileSync(spec.moduleId, 'utf8').slice(0, 2000);
    } catch {
      // a file that cannot be read keeps the project's environment; vitest reports the error
    }
    env = head.match(DOCBLOCK)?.[1] ?? spec.project.config.environment;
    cache.set(spec.moduleId, env);
  }
  return env;
}

export default class EnvironmentGroupingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const envs = new Map<string, string>();
    const rank = new Map<TestSpecification, number>(sorted.map((spec, i) => [spec, i]));
    // each project keeps its place (vitest runs the projects one after another); inside one that
    // does not isolate its files, the project's own environment first, then the others by name
    const projectRank = new Map<unknown, number>();
    sorted.forEach((spec, i) => projectRank.has(spec.project) || projectRank.set(spec.project, i));
    const envKey = (spec: TestSpecification) => {
      if (spec.project.config.isolate !== false) return '';
      const env = environmentOf(spec, envs);
      return env === spec.project.config.environment ? '' : env;
    };
    return sorted.sort((a, b) => {
      const byProject = projectRank.get(a.project)! - projectRank.get(b.project)!;
      if (byProject) return byProject;
      const ea = envKey(a);
      const eb = envKey(b);
      if (ea !== eb) return ea < eb ? -1 : 1;
      return rank.get(a)! - rank.get(b)!;
    });
  }
}
