// The drawing surface of the designer: bpmn-js's Modeler (palette, context pad, editing) with the
// Flowable attributes declared. Loaded lazily by ModelDesigner — and bpmn-js with it — so only the
// /flow/model route fetches the modeler. It reports the selected element as plain ElementInfo and
// applies the panel's Writes through the modeling API (one undoable command each).
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import { useEffect, useRef, useState } from 'react';
import { applyWrites, FLOWABLE_MODDLE, readElement, type ElementInfo, type Write, type WriteTarget } from './bpmn-props.ts';

/** The process itself (the diagram's root): its id is the model key, its documentation the description. */
export interface ProcessInfo {
  id: string;
  name: string;
  description: string;
}

export interface ModelerApi {
  xml(): Promise<string>;
  apply(writes: Write[]): void;
  process(): ProcessInfo;
  /** Sets the process's id, name and documentation (one undoable command). */
  updateProcess(info: ProcessInfo): void;
}

export interface ModelerCanvasProps {
  xml: string;
  onReady: (api: ModelerApi) => void;
  onSelect: (info: ElementInfo | null) => void;
  onError: (message: string) => void;
  /** After every change of the drawing (and once it is loaded). */
  onChange?: () => void;
}

export default function ModelerCanvas({ xml, onReady, onSelect, onError, onChange }: ModelerCanvasProps) {
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let modeler: any;
    let cancelled = false;
    void (async () => {
      try {
        const { default: Modeler } = await import('bpmn-js/lib/Modeler');
        if (cancelled || !container.current) return;
        modeler = new Modeler({ container: container.current, moddleExtensions: { flowable: FLOWABLE_MODDLE } });
        await modeler.importXML(xml);
        if (cancelled) return;
        const registry = modeler.get('elementRegistry');
        const modeling = modeler.get('modeling');
        const moddle = modeler.get('moddle');
        const target: WriteTarget = {
          element: (id) => registry.get(id)?.businessObject,
          update: (id, props) => {
            const el = registry.get(id);
            if (el) modeling.updateProperties(el, props);
          },
          create: (type, attrs) => moddle.create(type, attrs),
        };
        let selected: string | null = null;
        const report = () => {
          const el = selected ? registry.get(selected) : null;
          // a label stands for its element (a flow's name, an event's name)
          onSelect(el && el.businessObject && el.type !== 'bpmn:Process' ? readElement(el.businessObject) : null);
        };
        modeler.on('selection.changed', (e: { newSelection: { id: string }[] }) => {
          selected = e.newSelection.length === 1 ? e.newSelection[0].id : null;
          report();
        });
        modeler.on('commandStack.changed', () => onChange?.());
        const canvas = modeler.get('canvas');
        canvas.zoom('fit-viewport', 'auto');
        const root = () => canvas.getRootElement();
        onReady({
          xml: async () => (await modeler.saveXML({ format: true })).xml,
          apply: (writes) => applyWrites(target, writes),
          process: () => {
            const bo = root().businessObject;
            return {
              id: bo.id ?? '',
              name: bo.name ?? '',
              description: (bo.documentation ?? []).map((d: { text?: string }) => d.text ?? '').join('\n'),
            };
          },
          updateProcess: (info) => {
            const documentation = info.description.trim() ? [moddle.create('bpmn:Documentation', { text: info.description.trim() })] : [];
            modeling.updateProperties(root(), { id: info.id, name: info.name, documentation });
          },
        });
        setReady(true);
        onChange?.();
      } catch (err) {
        if (!cancelled) onError((err as Error).message);
      }
    })();
    return () => {
      cancelled = true;
      modeler?.destroy();
    };
  }, [xml]);
  return (
    <div
      ref={container}
      className="zs-designer-canvas"
      data-testid="designer-canvas"
      aria-busy={!ready}
      style={{ height: '100%', minHeight: 520, border: '1px solid #f0f0f0', background: '#fff' }}
    />
  );
}
