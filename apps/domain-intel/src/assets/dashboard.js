// Draws the dashboard's charts with Chart.js (loaded before this file as window.Chart) from the
// JSON the server embeds in the page, and asks before a key is revoked.
(() => {
  const Chart = window.Chart;
  const readData = (id) => {
    const element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  };
  const shortDay = (day) => day.slice(5);
  const palette = [
    '#2458d6',
    '#e07b00',
    '#2e9d5b',
    '#c62828',
    '#7e57c2',
    '#00838f',
    '#8d6e63',
    '#d81b60',
    '#546e7a',
    '#9e9d24',
  ];

  const usage = readData('usage-data');
  if (usage && Chart) {
    const datasets = [{ type: 'bar', label: 'API calls', data: usage.used, backgroundColor: palette[0] }];
    if (usage.limit !== null) {
      datasets.push({
        type: 'line',
        label: 'Daily cap',
        data: usage.days.map(() => usage.limit),
        borderColor: palette[3],
        borderDash: [6, 4],
        pointRadius: 0,
      });
    }
    new Chart(document.getElementById('usage-chart'), {
      data: { labels: usage.days.map(shortDay), datasets },
      options: {
        maintainAspectRatio: false,
        animation: false,
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
  }

  const drops = readData('drops-data');
  if (drops && Chart) {
    new Chart(document.getElementById('drops-chart'), {
      type: 'bar',
      data: {
        labels: drops.days.map(shortDay),
        datasets: drops.series.map((series, i) => ({
          label: `.${series.tld}`,
          data: series.counts,
          backgroundColor: palette[i % palette.length],
        })),
      },
      options: {
        maintainAspectRatio: false,
        animation: false,
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
  }

  const forecast = readData('forecast-data');
  if (forecast && Chart && document.getElementById('window-chart')) {
    new Chart(document.getElementById('window-chart'), {
      type: 'bar',
      data: {
        labels: forecast.tlds,
        datasets: [
          { label: 'Inside the window', data: forecast.inside, backgroundColor: palette[2] },
          { label: 'Outside', data: forecast.outside, backgroundColor: palette[3] },
        ],
      },
      options: {
        maintainAspectRatio: false,
        animation: false,
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
  }
  if (forecast && Chart && document.getElementById('forecast-chart')) {
    const bar = (label, data, color) => ({ label, data, backgroundColor: color });
    new Chart(document.getElementById('forecast-chart'), {
      type: 'bar',
      data: {
        labels: forecast.tlds,
        datasets: [
          bar('Early, p90', forecast.earlyP90, '#9db7f0'),
          bar('Early, p50', forecast.earlyP50, palette[0]),
          bar('Late, p50', forecast.lateP50, palette[1]),
          bar('Late, p90', forecast.lateP90, '#f3c48a'),
        ],
      },
      options: {
        maintainAspectRatio: false,
        animation: false,
        scales: { y: { title: { display: true, text: 'minutes (late > 0, early < 0)' } } },
      },
    });
  }

  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
})();
