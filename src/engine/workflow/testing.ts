// Small BPMN builders for tests and examples: a Flowable-namespace model written as a list of
// elements, so a test shows its process in a few readable lines.

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function definitions(body: string, extraNamespaces = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" targetNamespace="http://zhusuan.dev/bpmn"${extraNamespaces}>
${body}
</definitions>`;
}

export function processXml(key: string, name: string, elements: string[], extraNamespaces = ''): string {
  return definitions(
    `<process id="${key}" name="${xmlText(name)}" isExecutable="true">\n  ${elements.join('\n  ')}\n</process>`,
    extraNamespaces,
  );
}

export const startEvent = (id: string, initiator = 'applyUser') => `<startEvent id="${id}" flowable:initiator="${initiator}"/>`;
export const endEvent = (id: string, terminate = false) =>
  terminate ? `<endEvent id="${id}"><terminateEventDefinition/></endEvent>` : `<endEvent id="${id}"/>`;
export const exclusive = (id: string, defaultFlow?: string) =>
  `<exclusiveGateway id="${id}"${defaultFlow ? ` default="${defaultFlow}"` : ''}/>`;
export const parallel = (id: string) => `<parallelGateway id="${id}"/>`;

export interface TaskOptions {
  name?: string;
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
  /** multi-instance: collection expression, element variable, sequential, completion condition */
  multi?: { collection?: string; cardinality?: string; elementVariable?: string; sequential?: boolean; completion?: string };
}

export function userTask(id: string, options: TaskOptions): string {
  const attrs = [
    options.name ? ` name="${xmlText(options.name)}"` : '',
    options.assignee ? ` flowable:assignee="${xmlText(options.assignee)}"` : '',
    options.candidateUsers ? ` flowable:candidateUsers="${xmlText(options.candidateUsers)}"` : '',
    options.candidateGroups ? ` flowable:candidateGroups="${xmlText(options.candidateGroups)}"` : '',
  ].join('');
  const m = options.multi;
  if (!m) return `<userTask id="${id}"${attrs}/>`;
  const loopAttrs = [
    ` isSequential="${m.sequential ? 'true' : 'false'}"`,
    m.collection ? ` flowable:collection="${xmlText(m.collection)}"` : '',
    m.elementVariable ? ` flowable:elementVariable="${m.elementVariable}"` : '',
  ].join('');
  const inner = [
    m.cardinality ? `<loopCardinality>${xmlText(m.cardinality)}</loopCardinality>` : '',
    m.completion ? `<completionCondition xsi:type="tFormalExpression">${xmlText(m.completion)}</completionCondition>` : '',
  ].join('');
  return `<userTask id="${id}"${attrs}><multiInstanceLoopCharacteristics${loopAttrs}>${inner}</multiInstanceLoopCharacteristics></userTask>`;
}

export function flow(id: string, source: string, target: string, condition?: string): string {
  if (!condition) return `<sequenceFlow id="${id}" sourceRef="${source}" targetRef="${target}"/>`;
  return `<sequenceFlow id="${id}" sourceRef="${source}" targetRef="${target}"><conditionExpression xsi:type="tFormalExpression"><![CDATA[${condition}]]></conditionExpression></sequenceFlow>`;
}

/** start → one task per candidate group, in a row → end: the shape of most approvals. */
export function chain(key: string, groups: string[], name = key): string {
  const ids = groups.map((_, i) => `task${i + 1}`);
  const elements = [
    startEvent('start'),
    ...groups.map((g, i) => userTask(ids[i], { name: `${g} 审批`, candidateGroups: g })),
    endEvent('end'),
  ];
  const stops = ['start', ...ids, 'end'];
  for (let i = 0; i + 1 < stops.length; i++) elements.push(flow(`f${i + 1}`, stops[i], stops[i + 1]));
  return processXml(key, name, elements);
}
