// The drawing surface of the designer: bpmn-js's Modeler (palette, context pad, editing) with the
// Flowable attributes declared. Loaded lazily by ModelDesigner — and bpmn-js with it — so only the
// /flow/model route fetches the modeler. It reports the selected element as plain ElementInfo and
// applies the panel's Writes through the modeling API (one undoable command each).
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import { useEffect, useRef, useState } from 'react';
import { applyWrites, FLOWABLE_MODDLE, readElement, type ElementInfo, type Write, type WriteTarget } from './bpmn-props.ts';

export interface ModelerApi {
  xml(): Promise<string>;
  apply(writes: Write[]): void;
}

export interface ModelerCanvasProps {
  xml: string;
  onReady: (api: ModelerApi) => void;
  onSelect: (info: ElementInfo | null) => void;
  onError: (message: string) => void;
}

export default function ModelerCanvas({ xml, onReady, onSelect, onError }: ModelerCanvasProps) {
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
          update: (id, props) => { const el = registry.get(id); if (el) modeling.updateProperties(el, props); },
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
        modeler.get('canvas').zoom('fit-viewport', 'auto');
        onReady({
          xml: async () => (await modeler.saveXML({ format: true })).xml,
          apply: (writes) => applyWrites(target, writes),
        });
        setReady(true);
      } catch (err) {
        if (!cancelled) onError((err as Error).message);
      }
    })();
    return () => {
      cancelled = true;
      modeler?.destroy();
    };
  }, [xml]);
  return <div ref={container} className="zs-designer-canvas" data-testid="designer-canvas" aria-busy={!ready} style={{ height: '100%', minHeight: 520, border: '1px solid #f0f0f0', background: '#fff' }} />;
}
