export default {
  docs: ['intro', {type: 'category', label: 'Setting up', items: ['setup']}],
};
