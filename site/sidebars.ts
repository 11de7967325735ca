import type {SidebarsConfig} from '@docusaurus/plugin-content-docs';

const sidebars: SidebarsConfig = {
  docs: [
    'introduction',
    'getting-started',
    'discovery',
    'practical-questions',
    {
      type: 'category',
      label: 'API v1',
      collapsed: false,
      link: {
        type: 'generated-index',
        slug: '/category/api-v1',
        title: 'API v1',
        description: 'Version 1 of the local API: plain HTTP on port 80, enabled per device in the HomeWizard Energy app.',
      },
      items: ['v1/api', 'v1/measurement', 'v1/state', 'v1/identify', 'v1/system', 'v1/telegram', 'v1/error-handling'],
    },
    {
      type: 'category',
      label: 'API v2',
      collapsed: false,
      link: {
        type: 'generated-index',
        slug: '/category/api-v2',
        title: 'API v2',
        description: 'Version 2 of the local API: HTTPS on port 443 with token authorization and a WebSocket for pushed updates.',
      },
      items: [
        'v2/authorization',
        'v2/device_information',
        'v2/measurement',
        'v2/system',
        'v2/batteries',
        'v2/telegram',
        'v2/websocket',
        'v2/error-handling',
      ],
    },
    'versioning',
    'changelog',
  ],
};

export default sidebars;
