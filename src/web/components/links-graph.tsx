/**
 * The links between a repository's entries drawn as a small SVG graph: the entries that link
 * or are linked, on a circle, an arrow per link; each node a link to its entry. Big
 * repositories are cut to the first {@link MAX_NODES} linked entries (by path), and the same
 * links are listed as text below for screen readers and for reading.
 */
import type { KnowledgeItem } from "../api.js";
import { t } from "../i18n.js";
import { repoHref } from "../router.js";

/** At most this many nodes are drawn. */
export const MAX_NODES = 40;

/** The graph of `items`' links. */
export function LinksGraph(props: { owner: string; name: string; items: KnowledgeItem[] }) {
  const byId = new Map(props.items.filter((i) => !i.draft).map((i) => [i.id, i]));
  const edges: [KnowledgeItem, KnowledgeItem][] = [];
  for (const item of byId.values()) {
    for (const target of item.links) {
      const to = byId.get(target);
      if (to && to.id !== item.id) edges.push([item, to]);
    }
  }
  if (edges.length === 0) return <p>{t("noLinks")}</p>;
  const linked = [...new Set(edges.flat())]
    .sort((a, b) => a.path.localeCompare(b.path))
    .slice(0, MAX_NODES);
  const index = new Map(linked.map((item, i) => [item.id, i]));
  const size = 360;
  const radius = 140;
  const at = (i: number) => {
    const angle = (2 * Math.PI * i) / linked.length - Math.PI / 2;
    return { x: size / 2 + radius * Math.cos(angle), y: size / 2 + radius * Math.sin(angle) };
  };
  const shown = edges.filter(([a, b]) => index.has(a.id) && index.has(b.id));
  return (
    <figure class="graph">
      <svg
        viewBox={`0 0 ${size} ${size}`}
        width={size}
        height={size}
        aria-labelledby="links-graph-title"
      >
        <title id="links-graph-title">
          {t("linksGraphLabel", { nodes: linked.length, edges: shown.length })}
        </title>
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="16"
            refY="5"
            markerWidth="6"
            markerHeight="6"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" fill="#555" />
          </marker>
        </defs>
        {shown.map(([a, b]) => {
          const p = at(index.get(a.id) ?? 0);
          const q = at(index.get(b.id) ?? 0);
          return (
            <line
              key={`${a.id}-${b.id}`}
              x1={p.x}
              y1={p.y}
              x2={q.x}
              y2={q.y}
              stroke="#555"
              stroke-width="1.5"
              marker-end="url(#arrow)"
            />
          );
        })}
        {linked.map((item, i) => {
          const p = at(i);
          return (
            <a key={item.id} href={repoHref(props.owner, props.name, "entries", item.id)}>
              <title>{item.summary || item.path}</title>
              <circle cx={p.x} cy={p.y} r="8" fill={item.reachable ? "#1d5fa8" : "#a33"} />
              <text x={p.x} y={p.y - 12} text-anchor="middle" font-size="10" fill="#222">
                {shortName(item.path)}
              </text>
            </a>
          );
        })}
      </svg>
      <figcaption>
        <ul class="link-list">
          {edges.map(([a, b]) => (
            <li key={`${a.id}-${b.id}`}>
              <a href={repoHref(props.owner, props.name, "entries", a.id)}>{shortName(a.path)}</a>{" "}
              {t("linksTo")}{" "}
              <a href={repoHref(props.owner, props.name, "entries", b.id)}>{shortName(b.path)}</a>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

function shortName(path: string): string {
  const base = path.split("/").pop() ?? path;
  const bare = base.replace(/\.md$/, "");
  return bare.length > 18 ? `${bare.slice(0, 17)}…` : bare;
}
