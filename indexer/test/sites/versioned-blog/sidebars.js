export default {
  docs: [
    'intro',
    {type: 'category', label: 'Getting started', link: {type: 'generated-index'}, items: ['guide/setup', 'guide/tables']},
    {type: 'category', label: 'Troubleshooting', items: ['errors/404']},
  ],
};
