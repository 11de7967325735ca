import type {ReactNode} from 'react';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';

export default function Home(): ReactNode {
  return (
    <Layout title="Hello" description="The home page of a fresh Docusaurus site">
      <main className="container margin-vert--lg">
        <Heading as="h1">My Site</Heading>
        <p>Dinosaurs are cool.</p>
      </main>
    </Layout>
  );
}
