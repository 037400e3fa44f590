// The part of bpmn-moddle's API the workflow compiler uses (the package ships types only for the
// element classes, not for its entry point).
declare module 'bpmn-moddle' {
  export interface ModdleElement {
    $type: string;
    id?: string;
    name?: string;
    // biome-ignore lint/suspicious/noExplicitAny: moddle elements are reflective objects whose properties come from the BPMN meta-model at run time; unknown costs a cast at each of definition.ts's ~25 reads
    [property: string]: any;
  }

  export interface ParseResult {
    rootElement: ModdleElement;
    warnings: { message: string }[];
    elementsById: Record<string, ModdleElement>;
  }

  export class BpmnModdle {
    constructor(packages?: Record<string, unknown>, options?: Record<string, unknown>);
    fromXML(xml: string, typeName?: string, options?: Record<string, unknown>): Promise<ParseResult>;
  }
}
