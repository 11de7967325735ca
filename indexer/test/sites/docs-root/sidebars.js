export default {docs: ['home', {type: 'category', label: 'Reference', items: ['reference/endpoints']}]};
