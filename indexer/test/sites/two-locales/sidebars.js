export default {docs: [{type: 'category', label: 'Basics', items: ['intro', 'readings']}]};
