// A tile block (a link to a route: title, department line, icon, background) and a card container
// with a configurable corner radius.
import type { CSSProperties, ReactNode } from 'react';
import { useLocation } from 'wouter';

export function Tile({
  to,
  title,
  subtitle,
  icon,
  colour = '#409EFF',
  background,
}: {
  to: string;
  title: string;
  subtitle?: string;
  icon?: ReactNode;
  colour?: string;
  background?: string;
}) {
  const [, navigate] = useLocation();
  const style: CSSProperties = { backgroundColor: colour, ...(background && { backgroundImage: `url(${background})` }) };
  return (
    <div
      className="zs-tile"
      style={style}
      onClick={() => navigate(to)}
      role="link"
      tabIndex={0}
      onKeyDown={(e) => e.key === 'Enter' && navigate(to)}
    >
      <h3>
        {icon} {title}
      </h3>
      {subtitle && <p>{subtitle}</p>}
    </div>
  );
}

export function CardBox({ radius = 6, title, children }: { radius?: number; title?: ReactNode; children: ReactNode }) {
  return (
    <div className="zs-card" style={{ borderRadius: radius, marginBottom: 12 }}>
      {title && <h3 style={{ marginTop: 0 }}>{title}</h3>}
      {children}
    </div>
  );
}
