/**
 * Shown vs read per day as a uPlot line chart, with the same numbers in a table (the chart is
 * a picture; the table is what screen readers and the browser tests read).
 */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { DailyUsage } from "../api.js";
import { t } from "../i18n.js";

/** The chart and table of one `stats/daily` answer. */
export function UsageChart(props: { usage: DailyUsage; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const { days } = props.usage;
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xs = days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(320, Math.min(800, element.clientWidth || 640)),
        height: 240,
        series: [
          {},
          { label: t("shown"), stroke: "#1d5fa8", width: 2 },
          { label: t("read"), stroke: "#b5520b", width: 2, dash: [6, 3] },
        ],
        axes: [{}, { label: "" }],
        scales: { x: { time: true } },
      },
      [xs, days.map((d) => d.shown), days.map((d) => d.read)],
      element,
    );
    return () => plot.destroy();
  }, [days]);
  const shown = days.reduce((sum, d) => sum + d.shown, 0);
  const read = days.reduce((sum, d) => sum + d.read, 0);
  return (
    <section class="chart" aria-label={props.title}>
      <h2>{props.title}</h2>
      <div
        ref={box}
        class="chart-box"
        role="img"
        aria-label={t("chartLabel", { days: days.length })}
      />
      <details>
        <summary>{t("tableOfChart")}</summary>
        <table class="usage-table">
          <thead>
            <tr>
              <th scope="col">{t("day")}</th>
              <th scope="col">{t("shown")}</th>
              <th scope="col">{t("read")}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day} data-day={d.day}>
                <td>{d.day}</td>
                <td>{d.shown}</td>
                <td>{d.read}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{t("total")}</th>
              <td data-total="shown">{shown}</td>
              <td data-total="read">{read}</td>
            </tr>
          </tfoot>
        </table>
      </details>
    </section>
  );
}
