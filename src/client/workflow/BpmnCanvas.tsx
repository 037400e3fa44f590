// The BPMN drawing itself: bpmn-js's NavigatedViewer (pan and zoom) with the markers of highlights.ts.
// This module is loaded lazily by FlowDiagram, and loads bpmn-js in turn, so only pages showing a
// diagram ever fetch it.
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './flow-diagram.css';
import { useEffect, useRef, useState } from 'react';
import { MARKERS, type Highlights } from './highlights.ts';

export interface BpmnCanvasProps {
  xml: string;
  highlights: Highlights;
  onError: (message: string) => void;
}

export default function BpmnCanvas({ xml, highlights, onError }: BpmnCanvasProps) {
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let viewer: { destroy: () => void } | undefined;
    let cancelled = false;
    void (async () => {
      try {
        const { default: Viewer } = await import('bpmn-js/lib/NavigatedViewer');
        if (cancelled || !container.current) return;
        const instance = new Viewer({ container: container.current });
        viewer = instance;
        await instance.importXML(xml);
        if (cancelled) return;
        const canvas = instance.get<any>('canvas');
        const registry = instance.get<any>('elementRegistry');
        for (const [kind, ids] of Object.entries(highlights) as [keyof Highlights, string[]][]) {
          for (const id of ids) if (registry.get(id)) canvas.addMarker(id, MARKERS[kind]);
        }
        canvas.zoom('fit-viewport', 'auto');
        setReady(true);
      } catch (err) {
        if (!cancelled) onError((err as Error).message);
      }
    })();
    return () => {
      cancelled = true;
      viewer?.destroy();
    };
  }, [xml, highlights]);
  return <div ref={container} className="zs-flow-canvas" data-testid="flow-canvas" aria-busy={!ready} />;
}
