import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import CodeBlock from '@theme/CodeBlock';
import styles from './index.module.css';

type Device = {name: string; productType: string; summary: string};

const DEVICES: Device[] = [
  {name: 'P1 Meter', productType: 'HWE-P1', summary: 'Reads your smart meter: import, export, tariffs, phases and gas.'},
  {name: 'kWh Meter', productType: 'HWE-KWH1 / HWE-KWH3', summary: 'Measures one circuit, single or three phase, in both directions.'},
  {name: 'Plug-In Battery', productType: 'HWE-BAT', summary: 'Stores solar surplus; its group is steered through API v2.'},
  {name: 'Water Meter', productType: 'HWE-WTR', summary: 'Counts water use in litres per minute and cubic metres.'},
  {name: 'Energy Socket', productType: 'HWE-SKT', summary: 'Measures and switches one appliance.'},
];

type Entry = {title: string; to: string; text: string};

const ENTRIES: Entry[] = [
  {title: 'Getting started', to: '/docs/getting-started', text: 'Enable the API and make your first call in a few minutes.'},
  {title: 'API v1', to: '/docs/category/api-v1', text: 'Plain HTTP, no token: every device with a local API speaks it.'},
  {title: 'API v2', to: '/docs/category/api-v2', text: 'HTTPS, tokens and a WebSocket that pushes new values to you.'},
  {title: 'Search the docs', to: '/search', text: 'Look up any field, path or error code, such as active_power_w.'},
];

/** A first call as integrators make it: plain HTTP on the local network (API v1, no token). */
const FIRST_REQUEST = `GET /api HTTP/1.1
Host: 192.168.1.20
Accept: application/json`;

const FIRST_RESPONSE = `{
  "product_type": "HWE-P1",
  "product_name": "P1 Meter",
  "serial": "3c39e7aabbcc",
  "firmware_version": "2.11",
  "api_version": "v1"
}`;

export default function Home(): ReactNode {
  return (
    <Layout
      title="Local REST API documentation"
      description="Developer documentation for the HomeWizard Energy local REST API (v1 and v2): P1 meter, kWh meter, plug-in battery, water meter and energy socket.">
      <main>
        <header className={styles.hero}>
          <div className="container">
            <Heading as="h1" className={styles.title}>
              HomeWizard Energy local API
            </Heading>
            <p className={styles.lead}>
              Read live energy and water data straight from HomeWizard devices on your own network, and
              control sockets and batteries, without a cloud round trip. This site documents API v1 and
              API v2 for developers who build integrations.
            </p>
            <div className={styles.actions}>
              <Link className="button button--primary button--lg" to="/docs/getting-started">
                Get started
              </Link>
              <Link className="button button--secondary button--lg" to="/docs/introduction">
                Read the introduction
              </Link>
            </div>
          </div>
        </header>
        <div className="container margin-vert--lg">
          <section aria-labelledby="entry-points">
            <Heading as="h2" id="entry-points">
              Where to go
            </Heading>
            <ul className={styles.grid}>
              {ENTRIES.map((e) => (
                <li key={e.to} className={styles.card}>
                  <Link to={e.to} className={styles.cardLink}>
                    <span className={styles.cardTitle}>{e.title}</span>
                    <span>{e.text}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="first-call" className="margin-top--lg">
            <Heading as="h2" id="first-call">
              A first call
            </Heading>
            <p>
              Ask a device which product it is and which API version it speaks. With API v1 this is
              plain HTTP on your own network, without a token, and the device answers with JSON.
              Devices that only speak API v2 answer over HTTPS and want a token instead.
            </p>
            <div className={styles.exchange}>
              <CodeBlock language="http" title="Request">
                {FIRST_REQUEST}
              </CodeBlock>
              <CodeBlock language="json" title="Response">
                {FIRST_RESPONSE}
              </CodeBlock>
            </div>
          </section>
          <section aria-labelledby="devices" className="margin-top--lg">
            <Heading as="h2" id="devices">
              Devices with a local API
            </Heading>
            <ul className={styles.grid}>
              {DEVICES.map((d) => (
                <li key={d.name} className={styles.card}>
                  <span className={styles.cardTitle}>{d.name}</span>
                  <code>{d.productType}</code>
                  <span>{d.summary}</span>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </main>
    </Layout>
  );
}
